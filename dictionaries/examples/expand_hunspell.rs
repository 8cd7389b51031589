//! Prints every form of a hunspell dictionary, one per line, as the admin panel's upload expands
//! it (and as `hunspell-reader words` does for `dictionaries/build.sh`):
//!
//! `cargo run --release -p dictionaries --features catalog --example expand_hunspell -- index.dic index.aff`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dic, aff] = &args[..] else {
        return Err("usage: expand_hunspell <file.dic> <file.aff>".into());
    };
    let forms = dictionaries::hunspell::expand(&std::fs::read(dic)?, &std::fs::read(aff)?)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (_, form) in forms {
        std::io::Write::write_all(&mut out, form.as_bytes())?;
        std::io::Write::write_all(&mut out, b"\n")?;
    }
    Ok(())
}
