//! The game's chat (`data-testid="chat"`), in games between people: the messages, quick replies
//! one tap away, a line to write, and a way to report a message. It arrives with the page and is
//! asked for again when the live stream says a message was written.

use leptos::prelude::*;

use crate::api::chat::{send_chat, ChatView};
use crate::api::moderation::report_player;
use crate::i18n::{answer_text, keys, refusal, text, Key, Language};
use crate::{t, tr};

/// The quick replies, in the page's language.
const QUICK: [Key; 4] = [
    keys::chat::good_game,
    keys::chat::nice_move,
    keys::chat::thanks,
    keys::chat::oops,
];

/// The chat of game `game`, as `shown` holds it (`None`: the game has none).
#[component]
pub fn Chat(game: Signal<String>, shown: RwSignal<Option<ChatView>>) -> impl IntoView {
    let language = Language::expect();
    let draft = RwSignal::new(String::new());
    let said = RwSignal::new(None::<Said>);
    let take = move |answer: Result<Result<Option<ChatView>, _>, ServerFnError>| match answer {
        Ok(Ok(view)) => {
            said.set(None);
            shown.set(view);
        }
        Ok(Err(why)) => said.set(Some(Said::Refused(refusal(language.get_untracked(), &why)))),
        Err(error) => said.set(Some(Said::Refused(answer_text(
            language.get_untracked(),
            Err(error),
        )))),
    };
    let sending = Action::new(move |text: &String| {
        let (game, text) = (game.get_untracked(), text.clone());
        async move { send_chat(game, text).await }
    });
    Effect::new(move |_| {
        if let Some(answer) = sending.value().get() {
            if matches!(answer, Ok(Ok(_))) {
                draft.set(String::new());
            }
            take(answer);
        }
    });
    let send = move |text: String| {
        if !text.trim().is_empty() {
            sending.dispatch(text);
        }
    };
    move || {
        shown.get().map(|view| {
            let silenced = view.silenced.clone();
            if let Some(by_me) = view.off {
                return view! { <ChatOff by_me /> }.into_any();
            }
            view! {
                <section class="chat card" data-testid="chat" aria-labelledby="chat-title">
                    <h2 id="chat-title">{t!(chat.title)}</h2>
                    <ol class="chat-lines" aria-live="polite">
                        {view.lines.is_empty().then(|| view! { <li class="muted">{t!(chat.empty)}</li> })}
                        {view.lines.into_iter().map(|line| view! { <Line line said /> }).collect_view()}
                    </ol>
                    {match silenced {
                        Some(why) => view! { <p class="hint" data-testid="silenced">{move || refusal(language.get(), &why)}</p> }.into_any(),
                        None => view! {
                            <div class="quick-replies">
                                {QUICK.into_iter().map(|key| view! {
                                    <button type="button" class="small" on:click=move |_| send(language.get_untracked().text(key).into())>{text(key)}</button>
                                }).collect_view()}
                            </div>
                            <form class="chat-form" on:submit=move |ev| { ev.prevent_default(); send(draft.get_untracked()); }>
                                <input name="text" maxlength=domain::CHAT_MAX_CHARS.to_string() autocomplete="off"
                                    aria-label=move || tr!(language.get(), chat.write) placeholder=move || tr!(language.get(), chat.write)
                                    prop:value=move || draft.get() on:input=move |ev| draft.set(event_target_value(&ev)) />
                                <button type="submit" disabled=move || sending.pending().get()>{t!(chat.send)}</button>
                            </form>
                        }.into_any(),
                    }}
                    {move || said.get().map(|said| match said {
                        Said::Done(done) => view! { <p class="ok" role="status" data-testid="chat-said">{done}</p> }.into_any(),
                        Said::Refused(why) => view! { <crate::alert::Alert text=why testid="chat-said" /> }.into_any(),
                    })}
                </section>
            }.into_any()
        })
    }
}

/// What became of the last thing done in the chat: a success reads as one, a refusal as an error.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Said {
    Done(String),
    Refused(String),
}

/// The chat's place when it is off, saying why: the reader's own setting, or the other player's.
#[component]
fn ChatOff(by_me: bool) -> impl IntoView {
    view! {
        <section class="chat card" data-testid="chat" aria-labelledby="chat-title">
            <h2 id="chat-title">{t!(chat.title)}</h2>
            <p class="hint" data-testid="chat-off">
                {move || if by_me { t!(chat.off_by_me)() } else { t!(chat.off_by_other)() }}
                {by_me.then(|| view! { " "<a href="/settings" rel="external">{t!(chat.settings)}</a> })}
            </p>
        </section>
    }
}

/// One message, with a way to report it when it is someone else's.
#[component]
fn Line(line: crate::api::chat::ChatLine, said: RwSignal<Option<Said>>) -> impl IntoView {
    let language = Language::expect();
    let reporting = RwSignal::new(false);
    let reason = RwSignal::new(String::new());
    let (id, name) = (line.id, line.name.clone());
    let report = Action::new(move |reason: &String| {
        let (name, reason) = (name.clone(), reason.clone());
        async move { report_player(name, Some(id), reason).await }
    });
    Effect::new(move |_| {
        if let Some(answer) = report.value().get() {
            let texts = language.get_untracked();
            said.set(Some(match answer {
                Ok(Ok(())) => {
                    reporting.set(false);
                    Said::Done(tr!(texts, chat.reported).into())
                }
                Ok(Err(why)) => Said::Refused(refusal(texts, &why)),
                Err(error) => Said::Refused(answer_text(texts, Err(error))),
            }));
        }
    });
    let class = if line.mine {
        "chat-line mine"
    } else {
        "chat-line"
    };
    view! {
        <li class=class>
            <strong>{line.name}</strong>" "<span class="chat-text">{line.text}</span>
            {(!line.mine).then(|| view! {
                " "<button type="button" class="link small chat-report-open" aria-expanded=move || reporting.get().to_string()
                    on:click=move |_| reporting.update(|r| *r = !*r)>{t!(chat.report)}</button>
                <Show when=move || reporting.get()>
                    <form class="chat-report" on:submit=move |ev| { ev.prevent_default(); report.dispatch(reason.get_untracked()); }>
                        <input name="reason" maxlength="500" required aria-label=move || tr!(language.get(), chat.report_reason)
                            placeholder=move || tr!(language.get(), chat.report_reason)
                            prop:value=move || reason.get() on:input=move |ev| reason.set(event_target_value(&ev)) />
                        <button type="submit">{t!(chat.send_report)}</button>
                    </form>
                </Show>
            })}
        </li>
    }
}

/// Asks for the chat again (a message was written) and shows it.
#[cfg(feature = "hydrate")]
pub fn refresh(game: String, shown: RwSignal<Option<ChatView>>) {
    leptos::task::spawn_local(async move {
        // A refused refresh is not worth a message: the next message asks again.
        if let Ok(Ok(view)) = crate::api::chat::chat(game).await {
            if !shown.is_disposed() {
                shown.set(view);
            }
        }
    });
}
