"""Pure logic: no Discord, no I/O. Everything here is tested directly."""
