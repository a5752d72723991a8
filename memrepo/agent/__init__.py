"""The agent interface (SPEC §8): the Python API, the context block, the MCP server,
the session journal, promotion, extraction."""
