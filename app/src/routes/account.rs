//! The sign-in and sign-up pages. Both are plain forms that also work before the page hydrates;
//! after hydration they answer in place and go on to `?next=` (or the start page).

use domain::AccountProblem;
use leptos::{html, prelude::*, server_fn::ServerFn};
use leptos_router::hooks::{use_navigate, use_query_map};

use crate::{
    acting::Acting,
    api::account::{sign_in, sign_up, welcome_path, SignIn, SignUp},
    api::{Me, Refusal},
    i18n::Language,
    session::CurrentUser,
    t,
};

/// A name, a password and a second-factor code (empty unless asked for), as typed.
type Credentials = (String, String, String);
/// Signing in or up.
type Signing = Acting<Credentials, Result<Result<Me, Refusal>, ServerFnError>>;

/// Where to go after signing in: a local path from `?next=`, else the start page.
fn next_path() -> String {
    let next = use_query_map()
        .with_untracked(|q| q.get("next"))
        .unwrap_or_default();
    if domain::is_local_path(&next) {
        next
    } else {
        "/".into()
    }
}

/// The sign-in page.
#[component]
pub fn SignInPage() -> impl IntoView {
    let action: Signing = crate::acting::acting(|(name, password, code): &Credentials| {
        sign_in(name.clone(), password.clone(), code.clone())
    });
    let result = Signal::derive(move || action.value());
    follow_success(
        Signal::derive(move || result.get().map(|r| matches!(r, Ok(Ok(_))))),
        next_path(),
    );
    let said = shown(result);
    // The password was right and the account has a second factor: the form asks for its code.
    let ask_code = Signal::derive(move || {
        said.with(|said| {
            matches!(
                said,
                Some(Ok(Err(Refusal::Account(
                    AccountProblem::CodeNeeded | AccountProblem::WrongSecondFactor
                ))))
            )
        })
    });
    // The account's language, chosen on another device, comes with it.
    let language = Language::expect();
    Effect::new(move |_| {
        let chosen = result.with(|r| match r {
            Some(Ok(Ok(me))) => me.language,
            _ => None,
        });
        if let Some(lang) = chosen.filter(|lang| *lang != language.get_untracked().lang()) {
            crate::i18n::switch(language, lang);
        }
    });
    let next = next_path();
    let signup = format!("/signup?next={next}");
    view! {
        <main class="page narrow">
            <h1>{t!(nav.sign_in)}</h1>
            <CredentialsForm action url=SignIn::url() new_password=false ask_code>
                <button class="primary" type="submit" disabled=move || action.pending().get()>{t!(nav.sign_in)}</button>
                <Message result=said />
            </CredentialsForm>
            <p>{t!(account.new_here)}" " <a href=signup>{t!(account.create)}</a></p>
            // Rendered on the server outside the app: a full page load.
            <p><a href="/reset" rel="external" data-testid="forgot">{t!(account.forgot)}</a></p>
        </main>
    }
}

/// The sign-up page. A guest who signs up keeps the games they started.
#[component]
pub fn SignUpPage() -> impl IntoView {
    let action: Signing = crate::acting::acting(|(name, password, _): &Credentials| {
        sign_up(name.clone(), password.clone())
    });
    let result = Signal::derive(move || action.value());
    // A new account first sees the offer of recovery codes.
    follow_success(
        Signal::derive(move || result.get().map(|r| matches!(r, Ok(Ok(_))))),
        welcome_path(&next_path()),
    );
    let signin = format!("/signin?next={}", next_path());
    view! {
        <main class="page narrow">
            <h1>{t!(account.create)}</h1>
            <CredentialsForm action url=SignUp::url() new_password=true>
                <button class="primary" type="submit" disabled=move || action.pending().get()>{t!(nav.sign_up)}</button>
                <Message result=shown(result) />
            </CredentialsForm>
            <p>{t!(account.have_one)}" " <a href=signin>{t!(nav.sign_in)}</a></p>
        </main>
    }
}

/// What the form says of its last answer: the page's own, or else the refusal a plain form post
/// came back with (`?refused=`, see [`Refusal::as_address_word`]).
fn shown(
    result: Signal<Option<Result<Result<Me, Refusal>, ServerFnError>>>,
) -> Signal<Option<Result<Result<(), Refusal>, ServerFnError>>> {
    let earlier = use_query_map()
        .with_untracked(|q| q.get("refused"))
        .and_then(|word| Refusal::from_address_word(&word));
    Signal::derive(move || match result.get() {
        Some(answer) => Some(answer.map(|r| r.map(|_| ()))),
        None => earlier.clone().map(|refusal| Ok(Err(refusal))),
    })
}

/// After a successful sign-in or sign-up: refresh who is signed in, then go on to `next`.
fn follow_success(succeeded: Signal<Option<bool>>, next: String) {
    let user = CurrentUser::expect();
    Effect::new(move |_| {
        if succeeded.get() == Some(true) {
            user.refresh();
            // `/welcome` is rendered by the server outside the app: a full load.
            #[cfg(feature = "hydrate")]
            if next.starts_with("/welcome") {
                let _ = window().location().assign(&next);
                return;
            }
            use_navigate()(&next, Default::default());
        }
    });
}

/// A name and password form: posted plainly to `url` before the page hydrates (the server reads
/// the form), and sent through `action` after. While `ask_code` holds it asks for a
/// second-factor code too.
#[component]
fn CredentialsForm(
    action: Signing,
    url: &'static str,
    new_password: bool,
    #[prop(optional, into)] ask_code: Signal<bool>,
    children: Children,
) -> impl IntoView {
    let name = NodeRef::<html::Input>::new();
    // The name a refused plain form post had, typed again for the player.
    let typed = use_query_map()
        .with_untracked(|q| q.get("name"))
        .unwrap_or_default();
    let password = NodeRef::<html::Input>::new();
    let code = NodeRef::<html::Input>::new();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if let (Some(name), Some(password)) = (name.get_untracked(), password.get_untracked()) {
            let code = code.get_untracked().map(|c| c.value()).unwrap_or_default();
            action.dispatch((name.value(), password.value(), code));
        }
    };
    // Names are kept in small letters: a new name typed with capitals says how it will appear.
    let lowered = RwSignal::new(None::<String>);
    let on_name = move |ev: leptos::ev::Event| {
        let typed = event_target_value(&ev);
        let small = typed.trim().to_ascii_lowercase();
        lowered.set((new_password && small != typed.trim()).then_some(small));
    };
    let language = Language::expect();
    let (autocomplete, hint) = if new_password {
        ("new-password", t!(account.password_hint))
    } else {
        ("current-password", t!(account.no_hint))
    };
    view! {
        <form class="card form" method="post" action=url on:submit=submit>
        <label>
            {t!(account.name)}
            <input node_ref=name type="text" name="name" value=typed required minlength="3" maxlength="20"
                autocomplete="username" autocapitalize="none" spellcheck="false"
                pattern="[A-Za-z0-9_]{3,20}" title=t!(account.name_rule) on:input=on_name />
        </label>
        {move || lowered.get().map(|name| view! {
            <p class="hint" data-testid="name-lowered" aria-live="polite">{crate::tr!(language.get(), account.name_lowered, name)}</p>
        })}
        <label>
            {t!(account.password)}
            <input node_ref=password type="password" name="password" required minlength="8" maxlength="200"
                autocomplete=autocomplete placeholder=hint />
        </label>
        <Show when=move || ask_code.get()>
            <label>
                {t!(account.code)}
                <input node_ref=code type="text" name="code" required inputmode="numeric"
                    autocomplete="one-time-code" autocapitalize="none" spellcheck="false"
                    maxlength="20" data-testid="code" />
            </label>
        </Show>
        {children()}
        </form>
    }
}

/// The refusal or failure of the last submission, if any.
#[component]
pub fn Message(
    /// The last answer, without its value.
    result: Signal<Option<Result<Result<(), crate::api::Refusal>, ServerFnError>>>,
) -> impl IntoView {
    let language = Language::expect();
    move || {
        let text = match result.get()? {
            Ok(Ok(())) => return None,
            Ok(Err(refusal)) => crate::i18n::answer_text(language.get(), Ok(refusal)),
            Err(error) => crate::i18n::answer_text(language.get(), Err(error)),
        };
        Some(view! { <crate::alert::Alert text testid="form-error" /> })
    }
}
