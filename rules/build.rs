//! Turns `data/tilesets_and_boards.json` (the spec's data, copied verbatim) into Rust statics, so the
//! crate carries its tile sets and boards without a JSON parser at run time (it also runs in wasm).

use std::{env, fmt::Write as _, fs, path::Path};

use serde_json::Value;

const DATA: &str = "data/tilesets_and_boards.json";

fn main() {
    println!("cargo::rerun-if-changed={DATA}");
    let json: Value = serde_json::from_str(&fs::read_to_string(DATA).expect("read data file"))
        .expect("data file is JSON");
    let mut out = String::new();
    write_tilesets(&json["tilesets"], &mut out);
    write_boards(&json["boards"], &mut out);
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("data.rs");
    fs::write(dest, out).expect("write generated data");
}

fn write_tilesets(tilesets: &Value, out: &mut String) {
    for (id, letters) in tilesets.as_object().expect("tilesets is an object") {
        let name = id.to_uppercase();
        let mut blanks = 0u64;
        let mut specs = String::new();
        for (letter, spec) in letters.as_object().expect("a tile set is an object") {
            let count = spec["count"].as_u64().expect("count");
            let points = spec["points"].as_u64().expect("points");
            if letter == "?" {
                assert_eq!(points, 0, "{id}: blanks score nothing");
                blanks = count;
                continue;
            }
            let mut chars = letter.chars();
            let ch = chars.next().expect("a letter");
            assert!(chars.next().is_none(), "{id}: '{letter}' is one letter");
            writeln!(
                specs,
                "    LetterSpec {{ letter: '{ch}', count: {count}, points: {points} }},"
            )
            .unwrap();
        }
        writeln!(out, "/// Tile set `{id}` from the spec's data file.").unwrap();
        writeln!(out, "pub(crate) static {name}: TileSet = TileSet {{ id: \"{id}\", blanks: {blanks}, letters: &[\n{specs}] }};").unwrap();
    }
}

fn write_boards(boards: &Value, out: &mut String) {
    for (id, rows) in boards.as_object().expect("boards is an object") {
        let rows = rows.as_array().expect("a board is a list of rows");
        let mut cells = String::new();
        let mut width = None;
        for row in rows {
            let row: Vec<&str> = row
                .as_str()
                .expect("a row is a string")
                .split_whitespace()
                .collect();
            assert_eq!(
                *width.get_or_insert(row.len()),
                row.len(),
                "{id}: rows of equal width"
            );
            for cell in row {
                let premium = match cell {
                    ".." => "Plain",
                    "**" => "Start",
                    "DL" => "DoubleLetter",
                    "TL" => "TripleLetter",
                    "DW" => "DoubleWord",
                    "TW" => "TripleWord",
                    other => panic!("{id}: unknown cell '{other}'"),
                };
                write!(cells, "Cell::{premium},").unwrap();
            }
            cells.push('\n');
        }
        let name = id.to_uppercase();
        let (w, h) = (width.unwrap_or(0), rows.len());
        writeln!(out, "/// Board `{id}` from the spec's data file.").unwrap();
        writeln!(out, "pub(crate) static {name}: BoardLayout = BoardLayout {{ id: \"{id}\", width: {w}, height: {h}, cells: &[\n{cells}] }};").unwrap();
    }
}
