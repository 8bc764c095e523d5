-- A live transaction's source account (a channel, or the distribution account without channels)
-- reserved by one executor, in any process, from before it reads the account's sequence until
-- its attempt's outcome is recorded: no two executors build on one sequence. A reservation whose
-- holder died lapses at `until`.
CREATE TABLE source_reservations (
    account TEXT PRIMARY KEY,
    holder  TEXT NOT NULL,
    until   BIGINT NOT NULL
);
