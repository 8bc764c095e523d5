-- A credit note may take back units of the invoice's lines rather than an amount: which lines,
-- how many units and what they came to, as JSON (NULL for a credit note of an amount). Later
-- credit notes read it so that no unit is credited twice.
ALTER TABLE credit_notes ADD COLUMN lines TEXT;
