//! "About the dictionaries": where each word list comes from, its size, licence and attribution,
//! with the licence texts themselves.

use leptos::prelude::*;

use crate::dictionary::dictionary_list;

/// The page.
#[component]
pub fn AboutDictionaries() -> impl IntoView {
    let infos = crate::loaded::load(|| (), |_| dictionary_list(true));
    view! {
        <main class="page about">
            <h1>"About the dictionaries"</h1>
            <p class="tagline">
                "Every word list is free and built reproducibly from its published source. "
                "Words are lower case, 2–15 letters, in the tile set's alphabet; proper nouns, "
                "abbreviations and words with hyphens or apostrophes are left out, and é counts as e."
            </p>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || {
                    infos.get().map(|result| match result {
                        Err(error) => view! { <p class="error">{error.to_string()}</p> }.into_any(),
                        Ok(list) => list
                            .into_iter()
                            .map(|d| {
                                let words = group_digits(d.word_count);
                                view! {
                                    <section class="dictionary" id=d.id.as_str()>
                                        <h2>{d.name.clone()}</h2>
                                        <dl>
                                            <dt>"Words"</dt><dd>{words}</dd>
                                            <dt>"Letters"</dt><dd>{d.alphabet.to_uppercase()}</dd>
                                            <dt>"Source"</dt><dd>{format!("{} {}", d.source, d.source_version)}</dd>
                                            <dt>"Licence"</dt><dd>{d.licence.clone()}</dd>
                                            <dt>"Attribution"</dt><dd>{d.attribution.clone()}</dd>
                                        </dl>
                                        {d.licences
                                            .into_iter()
                                            .map(|(file, text)| view! {
                                                <details>
                                                    <summary>{file}</summary>
                                                    <pre>{text}</pre>
                                                </details>
                                            })
                                            .collect_view()}
                                    </section>
                                }
                            })
                            .collect_view()
                            .into_any(),
                    })
                }}
            </Suspense>
            <p><a href="/">"Back to the start page"</a></p>
        </main>
    }
}

/// 245105 → "245,105".
fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
