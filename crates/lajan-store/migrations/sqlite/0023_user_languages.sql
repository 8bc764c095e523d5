-- The console's language each user chose (en, fr, ht); NULL: their browser's.
ALTER TABLE users ADD COLUMN language TEXT;
