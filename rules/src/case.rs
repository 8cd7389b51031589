//! Upper and lower case for the letters of the tile sets, without Unicode's case tables.
//!
//! Every tile set's alphabet is in Latin-1 (A–Z and the Nordic letters Å, Ä, Æ, Ö, Ø), where a
//! letter's other case is a fixed offset away. `char::to_uppercase` and `to_lowercase` would
//! compile Unicode's whole case tables (26 KB) into the browser bundle for that (issue 18).
//! Characters outside Latin-1's letters (and ß and ÿ, whose other case is outside Latin-1) are
//! left as they are: no tile set has them, so a word with one is not a word either way.

/// `c` in upper case, for letters of Latin-1.
pub fn upper(c: char) -> char {
    match c {
        'a'..='z' | 'à'..='ö' | 'ø'..='þ' => char::from_u32(c as u32 - 0x20).unwrap_or(c),
        _ => c,
    }
}

/// `c` in lower case, for letters of Latin-1.
pub fn lower(c: char) -> char {
    match c {
        'A'..='Z' | 'À'..='Ö' | 'Ø'..='Þ' => char::from_u32(c as u32 + 0x20).unwrap_or(c),
        _ => c,
    }
}

/// `text` in upper case, letter by letter (see [`upper`]).
pub fn upper_str(text: &str) -> String {
    text.chars().map(upper).collect()
}

/// `text` in lower case, letter by letter (see [`lower`]).
pub fn lower_str(text: &str) -> String {
    text.chars().map(lower).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::TileSet;

    #[test]
    fn every_tile_sets_letters_have_unicodes_cases() {
        for set in TileSet::all() {
            for spec in set.letters {
                let upper_case = spec.letter;
                let lower_case = upper_case.to_lowercase().next().unwrap();
                assert_eq!(lower(upper_case), lower_case, "{}: {upper_case}", set.id);
                assert_eq!(upper(lower_case), upper_case, "{}: {lower_case}", set.id);
            }
        }
    }

    #[test]
    fn latin_1_agrees_with_unicode_where_a_letter_has_one_other_case_in_latin_1() {
        for c in (0..=0xFF_u32).filter_map(char::from_u32) {
            let (mut ups, mut downs) = (c.to_uppercase(), c.to_lowercase());
            let (up, down) = (ups.next().unwrap(), downs.next().unwrap());
            let single = ups.next().is_none() && downs.next().is_none();
            if single && (up as u32) <= 0xFF && (down as u32) <= 0xFF {
                assert_eq!(upper(c), up, "{c:?}");
                assert_eq!(lower(c), down, "{c:?}");
            } else {
                // ß (SS) and ÿ (Ÿ, outside Latin-1) stay as they are.
                assert_eq!((upper(c), lower(c)), (c, c), "{c:?}");
            }
        }
        assert_eq!(upper_str("smörgåsbord æø"), "SMÖRGÅSBORD ÆØ");
        assert_eq!(lower_str("SMÖRGÅSBORD ÆØ"), "smörgåsbord æø");
    }
}
