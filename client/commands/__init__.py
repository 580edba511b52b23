"""The commands: palabre's subcommands, the demo and the terminal front ends."""
