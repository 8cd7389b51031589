-- A message written to a player who blocks its author stays hidden from them for good: unblocking
-- later does not show what was written while the block held. NULL: hidden from no one.
ALTER TABLE chat_messages ADD COLUMN hidden_from BIGINT REFERENCES users (id);
