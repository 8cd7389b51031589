//! "About the dictionaries": where each word list comes from, its size, licence and attribution,
//! with the licence texts themselves.

use leptos::prelude::*;

use crate::dictionary::dictionary_list;
use crate::t;

/// The page.
#[component]
pub fn AboutDictionaries() -> impl IntoView {
    let infos = crate::loaded::load(|| (), |_| dictionary_list(true));
    view! {
        <main class="page about">
            <h1>{t!(home.about_dictionaries)}</h1>
            <p class="tagline">{t!(about.intro)}</p>
            <Suspense fallback=|| view! { <p>{t!(lobby.loading)}</p> }>
                {move || {
                    infos.get().map(|result| match result {
                        Err(error) => view! { <p class="error">{error.to_string()}</p> }.into_any(),
                        Ok(list) => list
                            .into_iter()
                            .map(|d| {
                                let count = d.word_count;
                                let words = crate::i18n::worded(move |texts| crate::i18n::whole(texts, count));
                                view! {
                                    <section class="dictionary" id=d.id.as_str()>
                                        <h2>{d.name.clone()}</h2>
                                        <dl>
                                            <dt>{t!(about.words)}</dt><dd>{words}</dd>
                                            <dt>{t!(about.letters)}</dt><dd>{rules::case::upper_str(&d.alphabet)}</dd>
                                            <dt>{t!(about.source)}</dt><dd>{format!("{} {}", d.source, d.source_version)}</dd>
                                            <dt>{t!(about.licence)}</dt><dd>{d.licence.clone()}</dd>
                                            <dt>{t!(about.attribution)}</dt><dd>{d.attribution.clone()}</dd>
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
            <p><a href="/">{t!(nav.back_home)}</a></p>
        </main>
    }
}
