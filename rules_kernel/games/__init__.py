"""One module per game (or a small package for a large one); each lists its classes in GAMES."""
