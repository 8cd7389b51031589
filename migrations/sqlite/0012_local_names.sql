-- Pass-and-play: each seat's own name on the shared device (the seats all belong to the owner's
-- account). NULL for every other seat.
ALTER TABLE game_seats ADD COLUMN local_name TEXT;
