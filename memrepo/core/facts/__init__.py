"""The fact logs and their time: instants (`times`), events, the §5 bitemporal fold, log
lines, the §6.5 log rules."""
