//! Turns the data files into Rust statics, so the crate carries its tile sets and boards without a
//! JSON parser at run time (it also runs in wasm):
//! - `data/tilesets_and_boards.json`: the spec's data, copied verbatim;
//! - `data/our_rulesets.json`: what docs/rules.md asks us to define (Alfapet, Long words), same format.

use std::{env, fmt::Write as _, fs, path::Path};

use serde_json::Value;

const FILES: [&str; 2] = ["data/tilesets_and_boards.json", "data/our_rulesets.json"];

fn main() {
    // Two files: the tile sets for `tiles.rs`, the boards for `board.rs`, each included there.
    let (mut tile_out, mut board_out) = (String::new(), String::new());
    let (mut tilesets, mut boards) = (Vec::new(), Vec::new());
    for file in FILES {
        println!("cargo::rerun-if-changed={file}");
        let json: Value = serde_json::from_str(&fs::read_to_string(file).expect("read data file"))
            .expect("data file is JSON");
        tilesets.extend(write_tilesets(&json["tilesets"], &mut tile_out));
        boards.extend(write_boards(&json["boards"], &mut board_out));
    }
    writeln!(
        tile_out,
        "pub(crate) static TILE_SETS: [&TileSet; {}] = [{}];",
        tilesets.len(),
        tilesets.join(", ")
    )
    .unwrap();
    writeln!(
        board_out,
        "pub(crate) static BOARDS: [&BoardLayout; {}] = [{}];",
        boards.len(),
        boards.join(", ")
    )
    .unwrap();
    let out_dir = env::var("OUT_DIR").unwrap();
    fs::write(Path::new(&out_dir).join("tile_sets.rs"), tile_out).expect("write generated data");
    fs::write(Path::new(&out_dir).join("boards.rs"), board_out).expect("write generated data");
}

fn write_tilesets(tilesets: &Value, out: &mut String) -> Vec<String> {
    let mut names = Vec::new();
    for (id, letters) in tilesets.as_object().expect("tilesets is an object") {
        let name = id.to_uppercase();
        let mut blanks = 0u64;
        let mut specs = String::new();
        // serde_json's map is sorted by key bytes, so letters come in UTF-8 byte order: the order
        // of the dictionaries' FSTs, which the engine relies on.
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
            assert!(
                chars.next().is_none() && ch.is_uppercase(),
                "{id}: '{letter}' is one capital letter"
            );
            writeln!(
                specs,
                "    LetterSpec {{ letter: '{ch}', count: {count}, points: {points} }},"
            )
            .unwrap();
        }
        writeln!(out, "/// Tile set `{id}`.").unwrap();
        writeln!(out, "pub(crate) static {name}: TileSet = TileSet {{ id: \"{id}\", blanks: {blanks}, letters: &[\n{specs}] }};").unwrap();
        names.push(format!("&{name}"));
    }
    names
}

fn write_boards(boards: &Value, out: &mut String) -> Vec<String> {
    let mut names = Vec::new();
    let Some(boards) = boards.as_object() else {
        return names;
    };
    for (id, rows) in boards {
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
                    "QL" => "QuadrupleLetter",
                    "DW" => "DoubleWord",
                    "TW" => "TripleWord",
                    "QW" => "QuadrupleWord",
                    "NL" => "NegativeLetter",
                    other => panic!("{id}: unknown cell '{other}'"),
                };
                write!(cells, "LayoutCell::{premium},").unwrap();
            }
            cells.push('\n');
        }
        let name = id.to_uppercase();
        let (w, h) = (width.unwrap_or(0), rows.len());
        writeln!(out, "/// Board `{id}`.").unwrap();
        writeln!(out, "pub(crate) static {name}: BoardLayout = BoardLayout {{ id: \"{id}\", width: {w}, height: {h}, cells: &[\n{cells}] }};").unwrap();
        names.push(format!("&{name}"));
    }
    names
}
