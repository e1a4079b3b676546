"""The checks that tell a correct translation from a plausible-looking wrong one."""
