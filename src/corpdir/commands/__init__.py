"""One module per `corpdir` subcommand (see corpdir.cli)."""
