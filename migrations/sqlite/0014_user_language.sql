-- The interface language an account chose ('en', 'sv', 'da' or 'nb'); NULL: never chosen, so the
-- browser's Accept-Language decides. Signing in sets the `lang` cookie from it.
ALTER TABLE users ADD COLUMN language TEXT;
