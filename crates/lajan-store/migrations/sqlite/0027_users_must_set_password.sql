-- A user invited with a password someone else chose (an admin's invitation, the CLI's generated
-- one) sets their own at first sign-in; the console shows nothing else until they have.
ALTER TABLE users ADD COLUMN must_set_password BOOLEAN NOT NULL DEFAULT 0;
