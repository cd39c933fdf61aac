"""Home games: private tables that friends open, run and settle up among themselves."""
