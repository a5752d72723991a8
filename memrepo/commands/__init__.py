"""One module per `memrepo` subcommand: `add_parser(subparsers)` and `run(args) -> int`."""
