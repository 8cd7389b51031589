//! `/settings`, rendered on the server: chat on or off, the players the caller blocked (each with
//! Unblock), two-factor sign-in, the password, the sessions signed in (each with Sign out),
//! recovery codes, the data export and closing the account. The
//! forms post to the server functions, which send the browser back here; new recovery codes are
//! shown once, on a page of their own ([`codes`]). `/reset` ([`reset`]) sets a new password with
//! a recovery code; closing the account ends on `/goodbye` ([`goodbye`]).

use leptos::prelude::*;

use super::plain;
use crate::api::{account::SessionCard, profile_path};
use crate::i18n::Texts;
use crate::tr;

/// What the settings page shows.
pub struct Settings {
    /// Chat turned off.
    pub chat_off: bool,
    /// The names the viewer blocked.
    pub blocked: Vec<String>,
    /// The viewer's sessions, this one first.
    pub sessions: Vec<SessionCard>,
    /// Unused recovery codes.
    pub codes_left: i64,
    /// Two-factor sign-in.
    pub two_factor: TwoFactor,
    /// The operator requires two-factor sign-in of admins, and this admin has none yet.
    pub two_factor_required: bool,
    /// E-mail, when this site sends it.
    pub mail: Option<MailChoices>,
    /// Push notifications.
    pub push: PushChoices,
    /// The vacation under way, and the days left.
    pub vacation: Vacation,
}

/// The viewer's vacation.
pub struct Vacation {
    /// When the one under way ends, unix ms.
    pub until: Option<i64>,
    /// Days they may still take.
    pub days_left: i64,
    /// Days a player has in any 365.
    pub days_a_year: i64,
}

/// Where the viewer's two-factor sign-in stands.
pub enum TwoFactor {
    /// Off.
    Off,
    /// A secret is waiting to be confirmed with a code.
    SettingUp {
        /// The secret, base32, for typing into an app.
        secret: String,
        /// The `otpauth://` address.
        uri: String,
        /// The address as a QR code, an SVG image.
        qr_svg: String,
    },
    /// On.
    On,
}

/// The page for `viewer`.
pub fn page(
    texts: Texts,
    viewer: &str,
    admin: bool,
    settings: Settings,
    said: Option<String>,
) -> String {
    let Settings {
        chat_off,
        blocked,
        sessions,
        codes_left,
        two_factor,
        two_factor_required,
        mail,
        push,
        vacation,
    } = settings;
    let main = view! {
        <main class="page settings" data-testid="settings">
            <h1>{tr!(texts, settings.title)}</h1>
            {said.map(|said| view! { <p class="flash" role="status" data-testid="said">{said}</p> })}
            <section class="card" aria-labelledby="chat-title">
                <h2 id="chat-title">{tr!(texts, chat.title)}</h2>
                <p>{if chat_off { tr!(texts, settings.chat_is_off) } else { tr!(texts, settings.chat_is_on) }}</p>
                <form method="post" action="/api/chat/setting">
                    <input type="hidden" name="off" value=(!chat_off).to_string() />
                    <button type="submit" data-testid="chat-setting">{if chat_off { tr!(texts, settings.chat_on) } else { tr!(texts, settings.chat_off) }}</button>
                </form>
            </section>
            <section class="card" aria-labelledby="blocked-title">
                <h2 id="blocked-title">{tr!(texts, settings.blocked)}</h2>
                {if blocked.is_empty() {
                    view! { <p class="muted">{tr!(texts, settings.none_blocked)}</p> }.into_any()
                } else {
                    view! {
                        <ul class="friend-list" data-testid="blocked">
                            {blocked.into_iter().map(|name| view! {
                                <li><a href=profile_path(&name)>{name.clone()}</a>
                                    <form method="post" action="/api/blocks/unblock" class="inline">
                                        <input type="hidden" name="name" value=name />
                                        <button type="submit" class="small">{tr!(texts, friends.unblock)}</button>
                                    </form>
                                </li>
                            }).collect_view()}
                        </ul>
                        <p class="hint" data-testid="unblock-note">{tr!(texts, friends.unblock_note)}</p>
                    }.into_any()
                }}
            </section>
            <VacationCard texts vacation />
            <Notifications texts push />
            {mail.map(|mail| view! { <Mail texts mail /> })}
            <SecondFactor texts two_factor two_factor_required codes_left />
            <Security texts sessions codes_left />
            // Turns notifications on and off for this device (the page has no other script).
            <script src="/push.js" defer></script>
        </main>
    };
    plain::document(texts, tr!(texts, settings.title), Some(viewer), admin, main)
}

/// The password, the sessions and the recovery codes.
#[component]
fn Security(texts: Texts, sessions: Vec<SessionCard>, codes_left: i64) -> impl IntoView {
    view! {
        <section class="card" aria-labelledby="password-title">
            <h2 id="password-title">{tr!(texts, settings.password)}</h2>
            <form method="post" action="/api/account/password" class="form">
                <label>{tr!(texts, settings.current_password)}
                    <input type="password" name="current" required autocomplete="current-password" />
                </label>
                <label>{tr!(texts, settings.new_password)}
                    <input type="password" name="new" required minlength="8" maxlength="200" autocomplete="new-password" />
                </label>
                <button type="submit" data-testid="change-password">{tr!(texts, settings.change_password)}</button>
            </form>
        </section>
        <section class="card" aria-labelledby="sessions-title">
            <h2 id="sessions-title">{tr!(texts, settings.sessions)}</h2>
            <ul class="friend-list" data-testid="sessions">
                {sessions.into_iter().map(|s| view! {
                    <li data-current=s.current.to_string()>
                        {s.device.unwrap_or_else(|| tr!(texts, settings.unknown_device).into())}
                        " "<span class="muted">{s.seen_day.map(|day| tr!(texts, settings.last_seen, day = rules::daily::Day::of_unix_ms(day * 86_400_000).to_string()))}</span>
                        {match s.current {
                            true => view! { " " <strong>{tr!(texts, settings.this_device)}</strong> }.into_any(),
                            false => view! {
                                <form method="post" action="/api/account/sign-out-sessions" class="inline">
                                    <input type="hidden" name="handle" value=s.handle />
                                    <button type="submit" class="small">{tr!(texts, nav.sign_out)}</button>
                                </form>
                            }.into_any(),
                        }}
                    </li>
                }).collect_view()}
            </ul>
            <form method="post" action="/api/account/sign-out-sessions">
                <input type="hidden" name="handle" value="" />
                <button type="submit" data-testid="sign-out-others">{tr!(texts, settings.sign_out_others)}</button>
            </form>
        </section>
        <section class="card" aria-labelledby="codes-title">
            <h2 id="codes-title">{tr!(texts, settings.recovery_codes)}</h2>
            <p>{tr!(texts, settings.codes_about)}</p>
            <p class="muted" data-testid="codes-left">{tr!(texts, settings.codes_left, count = codes_left)}</p>
            <form method="post" action="/settings/recovery-codes" class="form">
                <label>{tr!(texts, settings.current_password)}
                    <input type="password" name="password" required autocomplete="current-password" />
                </label>
                <button type="submit" data-testid="new-codes">{tr!(texts, settings.new_codes)}</button>
            </form>
        </section>
        <section class="card" aria-labelledby="data-title">
            <h2 id="data-title">{tr!(texts, settings.your_data)}</h2>
            <p>{tr!(texts, settings.export_about)}</p>
            <p><a class="button" href="/settings/export" download data-testid="export">{tr!(texts, settings.export)}</a></p>
        </section>
        <section class="card danger" aria-labelledby="close-title">
            <h2 id="close-title">{tr!(texts, settings.close_title)}</h2>
            <p>{tr!(texts, settings.close_about)}</p>
            <form method="post" action="/api/account/close" class="form" data-testid="close-account">
                <label>{tr!(texts, settings.current_password)}
                    <input type="password" name="password" required autocomplete="current-password" />
                </label>
                <button type="submit" class="danger">{tr!(texts, settings.close)}</button>
            </form>
        </section>
    }
}

/// `/welcome`: a new account's first page, which offers recovery codes before going on to
/// `next`.
pub fn welcome(texts: Texts, viewer: &str, next: String, said: Option<String>) -> String {
    let main = view! {
        <main class="page narrow" data-testid="welcome">
            <h1>{tr!(texts, settings.welcome_title, name = viewer.to_string())}</h1>
            <p>{tr!(texts, settings.welcome_codes)}</p>
            {said.map(|said| view! { <p class="flash" role="status" data-testid="said">{said}</p> })}
            <form method="post" action="/settings/recovery-codes" class="form">
                <input type="hidden" name="next" value=next.clone() />
                <label>{tr!(texts, settings.welcome_password)}
                    <input type="password" name="password" required autocomplete="current-password" />
                </label>
                <button type="submit" class="primary" data-testid="welcome-codes">{tr!(texts, settings.welcome_make)}</button>
            </form>
            <p><a href=next data-testid="welcome-skip">{tr!(texts, settings.welcome_skip)}</a></p>
        </main>
    };
    plain::document(
        texts,
        tr!(texts, settings.recovery_codes),
        Some(viewer),
        false,
        main,
    )
}

/// The part of `/reset` that works by mail.
#[component]
fn ResetByMail(texts: Texts, mail: ByMail) -> impl IntoView {
    match mail {
        ByMail::Off => ().into_any(),
        ByMail::Link { token } => view! {
            <form method="post" action="/api/mail/reset" class="card form" data-testid="reset-by-link">
                <input type="hidden" name="token" value=token />
                <label>{tr!(texts, settings.new_password)}
                    <input type="password" name="password" required minlength="8" maxlength="200" autocomplete="new-password" />
                </label>
                <button type="submit" class="primary">{tr!(texts, settings.reset)}</button>
            </form>
        }.into_any(),
        ByMail::Ask { sent } => view! {
            <section class="card" data-testid="reset-by-mail">
                <p>{tr!(texts, settings.mail_reset_about)}</p>
                {sent.then(|| view! { <p class="flash" role="status" data-testid="said">{tr!(texts, settings.mail_reset_sent)}</p> })}
                <form method="post" action="/api/mail/forgot" class="form">
                    <label>{tr!(texts, settings.name_or_address)}
                        <input name="who" required maxlength="254" autocomplete="username" />
                    </label>
                    <button type="submit">{tr!(texts, settings.mail_reset_send)}</button>
                </form>
            </section>
        }.into_any(),
    }
}

/// The viewer's notification choices.
pub struct PushChoices {
    /// Devices subscribed.
    pub devices: i64,
    /// The kinds on.
    pub kinds: Vec<domain::PushKind>,
    /// Quiet hours, minutes of the UTC day.
    pub quiet: Option<(i64, i64)>,
}

/// Notifications: this device on or off (through `/push.js`), the kinds, the quiet hours.
#[component]
fn Notifications(texts: Texts, push: PushChoices) -> impl IntoView {
    use domain::PushKind;
    let PushChoices {
        devices,
        kinds,
        quiet,
    } = push;
    let label = move |kind: PushKind| match kind {
        PushKind::Turn => tr!(texts, settings.push_turn),
        PushKind::Challenge => tr!(texts, settings.push_challenge),
        PushKind::Rematch => tr!(texts, settings.push_rematch),
        PushKind::Deadline => tr!(texts, settings.push_deadline),
        PushKind::Over => tr!(texts, settings.push_over),
    };
    // Hours as the page's clock shows them: UTC here, the player's own once `/push.js` runs.
    let hours = move |name: &'static str, minute: Option<i64>| {
        view! {
            <select name=name data-utc-minute=minute.map(|m| m.to_string())>
                <option value="" selected=minute.is_none()>"—"</option>
                {(0..24).map(|h| view! { <option value=h.to_string() selected=minute == Some(h * 60)>{format!("{h:02}:00")}</option> }).collect_view()}
            </select>
        }
    };
    view! {
        <section class="card" aria-labelledby="push-title" data-testid="push">
            <h2 id="push-title">{tr!(texts, settings.push)}</h2>
            <p>{tr!(texts, settings.push_about)}</p>
            <p class="muted" data-testid="push-devices">{tr!(texts, settings.push_devices, count = devices)}</p>
            <p>
                <button type="button" class="primary" data-push-on="" data-push-offer="" hidden data-testid="push-on"
                    data-said-on=tr!(texts, settings.push_said_on) data-said-denied=tr!(texts, settings.push_said_denied)
                    data-said-failed=tr!(texts, settings.push_said_failed)>{tr!(texts, settings.push_turn_on)}</button>
                <button type="button" data-push-off="" hidden data-testid="push-off"
                    data-said-off=tr!(texts, settings.push_said_off)>{tr!(texts, settings.push_turn_off)}</button>
            </p>
            <p role="status" data-push-said="" data-testid="push-said"></p>
            <form method="post" action="/api/push/choose" class="form">
                {PushKind::ALL.into_iter().map(|kind| view! {
                    <label class="check"><input type="checkbox" name=kind.word() value="on" checked=kinds.contains(&kind) />{label(kind)}</label>
                }).collect_view()}
                <fieldset class="quiet">
                    <legend>{tr!(texts, settings.push_quiet)}</legend>
                    {hours("quiet_from", quiet.map(|q| q.0))}" – "{hours("quiet_to", quiet.map(|q| q.1))}
                </fieldset>
                <input type="hidden" name="offset" value="0" data-push-offset="" />
                <button type="submit" data-testid="push-choose">{tr!(texts, settings.mail_save)}</button>
            </form>
        </section>
    }
}

/// The viewer's address and the mail they chose.
pub struct MailChoices {
    /// The verified address, if any.
    pub email: Option<String>,
    /// An address waiting for its link.
    pub pending: Option<String>,
    /// The daily digest.
    pub digest: bool,
    /// Deadline warnings.
    pub deadlines: bool,
}

/// E-mail: the address (with its state) and the mail to receive.
#[component]
fn Mail(texts: Texts, mail: MailChoices) -> impl IntoView {
    let MailChoices {
        email,
        pending,
        digest,
        deadlines,
    } = mail;
    let verified = email.is_some();
    view! {
        <section class="card" aria-labelledby="mail-title" data-testid="mail">
            <h2 id="mail-title">{tr!(texts, settings.mail)}</h2>
            <p>{tr!(texts, settings.mail_about)}</p>
            {email.clone().map(|address| view! { <p data-testid="mail-address">{tr!(texts, settings.mail_verified, address)}</p> })}
            {pending.clone().map(|address| view! { <p class="muted" data-testid="mail-pending">{tr!(texts, settings.mail_pending, address)}</p> })}
            <form method="post" action="/api/mail/address" class="form">
                <label>{tr!(texts, settings.mail_address)}
                    <input type="email" name="address" required maxlength="254" autocomplete="email" value=pending.or(email).unwrap_or_default() />
                </label>
                <label>{tr!(texts, settings.current_password)}
                    <input type="password" name="password" required autocomplete="current-password" />
                </label>
                <button type="submit" data-testid="mail-set">{tr!(texts, settings.mail_send_link)}</button>
            </form>
            {verified.then(|| view! {
                <form method="post" action="/api/mail/choose" class="form">
                    <label class="check"><input type="checkbox" name="digest" value="on" checked=digest />{tr!(texts, settings.mail_digest)}</label>
                    <label class="check"><input type="checkbox" name="deadlines" value="on" checked=deadlines />{tr!(texts, settings.mail_deadlines)}</label>
                    <button type="submit" data-testid="mail-choose">{tr!(texts, settings.mail_save)}</button>
                </form>
                <form method="post" action="/api/mail/remove">
                    <button type="submit" class="danger small">{tr!(texts, settings.mail_remove)}</button>
                </form>
            })}
        </section>
    }
}

/// The vacation under way with its early end, or the form that starts one.
#[component]
fn VacationCard(texts: Texts, vacation: Vacation) -> impl IntoView {
    let Vacation {
        until,
        days_left,
        days_a_year,
    } = vacation;
    let form = match until {
        Some(until) => view! {
            <p data-testid="vacation-until">{tr!(texts, vacation.until, until = crate::i18n::moment(until))}</p>
            <form method="post" action="/api/vacation/end">
                <button type="submit" data-testid="vacation-end">{tr!(texts, vacation.end)}</button>
            </form>
        }
        .into_any(),
        None if days_left == 0 => {
            view! { <p class="muted">{tr!(texts, vacation.none_left)}</p> }.into_any()
        }
        None => view! {
            <form method="post" action="/api/vacation/start" class="form inline">
                <label>{tr!(texts, vacation.days)}
                    <input type="number" name="days" min="1" max=days_left value=days_left.min(7) required inputmode="numeric" data-testid="vacation-days" />
                </label>
                <button type="submit" data-testid="vacation-start">{tr!(texts, vacation.start)}</button>
            </form>
        }
        .into_any(),
    };
    view! {
        <section class="card" aria-labelledby="vacation-title" data-testid="vacation">
            <h2 id="vacation-title">{tr!(texts, vacation.title)}</h2>
            <p>{tr!(texts, vacation.about)}</p>
            <p data-testid="vacation-left">{tr!(texts, vacation.left, days = days_left, total = days_a_year)}</p>
            {form}
        </section>
    }
}

/// `/goodbye`: where a closed account's last page goes.
pub fn goodbye(texts: Texts) -> String {
    let main = view! {
        <main class="page narrow" data-testid="goodbye">
            <h1>{tr!(texts, settings.closed_title)}</h1>
            <p>{tr!(texts, settings.closed_about)}</p>
            <p><a class="button" href="/">{tr!(texts, nav.back_home)}</a></p>
        </main>
    };
    plain::document(texts, tr!(texts, settings.closed_title), None, false, main)
}

/// Two-factor sign-in: set it up (a QR code and the secret, then a code to confirm), or turn
/// it off.
#[component]
fn SecondFactor(
    texts: Texts,
    two_factor: TwoFactor,
    two_factor_required: bool,
    codes_left: i64,
) -> impl IntoView {
    let state = match two_factor {
        TwoFactor::Off => view! {
            <p>{tr!(texts, settings.two_factor_about)}</p>
            <form method="post" action="/api/account/two-factor-begin">
                <button type="submit" class="primary" data-testid="two-factor-begin">{tr!(texts, settings.two_factor_begin)}</button>
            </form>
        }.into_any(),
        TwoFactor::SettingUp { secret, uri, qr_svg } => view! {
            <p>{tr!(texts, settings.two_factor_scan)}</p>
            <a class="qr" href=uri inner_html=qr_svg aria-label=tr!(texts, settings.two_factor_qr)></a>
            <p>{tr!(texts, settings.two_factor_key)}" "<code data-testid="two-factor-secret">{secret}</code></p>
            <form method="post" action="/api/account/two-factor-confirm" class="form">
                <label>{tr!(texts, settings.two_factor_code)}
                    <input name="code" required inputmode="numeric" autocomplete="one-time-code" maxlength="8" data-testid="two-factor-code" />
                </label>
                <button type="submit" class="primary" data-testid="two-factor-confirm">{tr!(texts, settings.two_factor_confirm)}</button>
            </form>
        }.into_any(),
        TwoFactor::On => view! {
            <p data-testid="two-factor-on">{tr!(texts, settings.two_factor_on)}</p>
            {(codes_left == 0).then(|| view! { <p class="error" role="alert">{tr!(texts, settings.two_factor_no_codes)}</p> })}
            <form method="post" action="/api/account/two-factor-off" class="form">
                <label>{tr!(texts, settings.current_password)}
                    <input type="password" name="password" required autocomplete="current-password" />
                </label>
                <button type="submit" class="danger">{tr!(texts, settings.two_factor_off)}</button>
            </form>
        }.into_any(),
    };
    view! {
        <section class="card" id="two-factor" aria-labelledby="two-factor-title" data-testid="two-factor">
            <h2 id="two-factor-title">{tr!(texts, settings.two_factor)}</h2>
            {two_factor_required.then(|| view! { <p class="flash" role="alert" data-testid="two-factor-required">{tr!(texts, refusal.second_factor_required)}</p> })}
            {state}
        </section>
    }
}

/// New recovery codes, shown this once; then on to `next` (a new account's first page), or
/// back to settings.
pub fn codes(
    texts: Texts,
    viewer: &str,
    admin: bool,
    codes: Vec<String>,
    next: Option<String>,
) -> String {
    let (href, label) = match next {
        Some(next) => (next, tr!(texts, settings.go_on)),
        None => ("/settings".to_string(), tr!(texts, settings.title)),
    };
    // To keep them: a file to download (a data address, no script needed), or the clipboard.
    let listed = codes.join("\n");
    let file = format!(
        "data:text/plain;charset=utf-8,{}",
        listed
            .bytes()
            .map(|b| match b {
                b if b.is_ascii_alphanumeric() || b == b'-' => char::from(b).to_string(),
                b => format!("%{b:02X}"),
            })
            .collect::<String>()
    );
    let copied = tr!(texts, settings.codes_copied);
    let copy = format!(
        "navigator.clipboard.writeText(this.dataset.codes).then(() => this.textContent = {copied:?})"
    );
    let main = view! {
        <main class="page narrow" data-testid="recovery-codes">
            <h1>{tr!(texts, settings.recovery_codes)}</h1>
            <p>{tr!(texts, settings.codes_once)}</p>
            <ol class="codes">{codes.into_iter().map(|code| view! { <li><code>{code}</code></li> }).collect_view()}</ol>
            <p class="actions">
                <a class="button" href=file download="alfakraft-recovery-codes.txt" data-testid="codes-download">{tr!(texts, settings.codes_download)}</a>
                <button type="button" data-codes=listed onclick=copy data-testid="codes-copy">{tr!(texts, settings.codes_copy)}</button>
            </p>
            <p><a class="button" href=href data-testid="codes-done">{label}</a></p>
        </main>
    };
    plain::document(
        texts,
        tr!(texts, settings.recovery_codes),
        Some(viewer),
        admin,
        main,
    )
}

/// What `/reset` offers besides recovery codes.
pub enum ByMail {
    /// This site sends no mail.
    Off,
    /// A link may be asked for; `sent` once one was (if the account has an address).
    Ask {
        /// The request was made.
        sent: bool,
    },
    /// A mailed link that still works: a new password for it.
    Link {
        /// The link's token.
        token: String,
    },
}

/// `/reset`: a new password by a mailed link (when this site sends mail) or with a recovery code;
/// `refused` says why the last try failed.
pub fn reset(texts: Texts, refused: Option<String>, name: Option<String>, mail: ByMail) -> String {
    let main = view! {
        <main class="page narrow" data-testid="reset">
            <h1>{tr!(texts, settings.reset_title)}</h1>
            {refused.map(|why| view! { <p class="error" role="alert">{why}</p> })}
            <ResetByMail texts mail />
            <p>{tr!(texts, settings.reset_about)}</p>
            <form method="post" action="/api/account/recover" class="form">
                <label>{tr!(texts, account.name)}
                    <input name="name" required autocomplete="username" value=name.unwrap_or_default() />
                </label>
                <label>{tr!(texts, settings.recovery_code)}
                    <input name="code" required autocomplete="off" />
                </label>
                <label>{tr!(texts, settings.new_password)}
                    <input type="password" name="password" required minlength="8" maxlength="200" autocomplete="new-password" />
                </label>
                <button type="submit" class="primary">{tr!(texts, settings.reset)}</button>
            </form>
        </main>
    };
    plain::document(texts, tr!(texts, settings.reset_title), None, false, main)
}
