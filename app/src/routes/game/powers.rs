//! Alfa Kraft's economy on the game page: the shop and the sell area above the board, the
//! seven-slot power bar above the hand, and the rewards a big play earned (or lost to a full
//! bar). Buying and selling work at any time, also during the other player's turn; only the
//! player to move drafts powers, which commit with Play.

use leptos::{ev, prelude::*};
use rules::{
    game::{Status, TurnEvent},
    powers::{Power, POWER_BAR_SLOTS},
    Action as Move,
};

use crate::tr;

use super::table::{DragFrom, Table, BAR_SLOTS};
use crate::i18n::{power_name, Texts};

/// What a power does, in a line.
pub(crate) fn describe(texts: Texts, power: Power) -> &'static str {
    match power {
        Power::Swap => tr!(texts, power_does.swap),
        Power::Charge => tr!(texts, power_does.charge),
        Power::Dice => tr!(texts, power_does.dice),
        Power::Rubber => tr!(texts, power_does.rubber),
        Power::AlfaMorf => tr!(texts, power_does.alfa_morf),
        Power::AlfaPowerTile => tr!(texts, power_does.alfa_power_tile),
        Power::GoldenTile => tr!(texts, power_does.golden_tile),
    }
}

/// A power with its article ("an Alfa Power Tile"), for the news of a reward.
fn power_with_article(texts: Texts, power: Power) -> &'static str {
    match power {
        Power::Swap => tr!(texts, power_a.swap),
        Power::Charge => tr!(texts, power_a.charge),
        Power::Dice => tr!(texts, power_a.dice),
        Power::Rubber => tr!(texts, power_a.rubber),
        Power::AlfaMorf => tr!(texts, power_a.alfa_morf),
        Power::AlfaPowerTile => tr!(texts, power_a.alfa_power_tile),
        Power::GoldenTile => tr!(texts, power_a.golden_tile),
    }
}

pub(crate) fn icon(power: Power) -> &'static str {
    match power {
        Power::Swap => "⇄",
        Power::Charge => "⚡",
        Power::Dice => "🎲",
        Power::Rubber => "⌫",
        Power::AlfaMorf => "✎",
        Power::AlfaPowerTile => "α",
        Power::GoldenTile => "★",
    }
}

/// Whether the game has an economy, and the caller's coins and bar.
fn economy(table: Table) -> Option<(i32, Vec<Power>, rules::Seat)> {
    table.page.with(|p| {
        let view = &p.as_ref()?.view;
        view.rules().economy.then(|| {
            (
                view.coins.get(usize::from(view.seat)).copied().unwrap_or(0),
                view.power_bar.clone(),
                view.seat,
            )
        })
    })
}

/// The shop button and panel, and the sell area: above the board, on its right.
#[component]
pub fn ShopAndSell(table: Table, trade: Callback<Move>) -> impl IntoView {
    let open = RwSignal::new(false);
    let sell = move |index: usize| {
        let Some((_, bar, seat)) = economy(table) else {
            return;
        };
        let Some(power) = bar.get(index).copied() else {
            return;
        };
        table.selected.set(None);
        if power.price().is_none() {
            let texts = table.language.get_untracked();
            table.message.set(Some(tr!(
                texts,
                shop.cannot_sell,
                power = power_name(texts, power)
            )));
            return;
        }
        table.release_bar_item(index);
        trade.run(Move::Sell { seat, power });
    };
    let drop_to_sell = move |ev: ev::DragEvent| {
        ev.prevent_default();
        if let Some(DragFrom::Bar(index)) = table.dragging.get_untracked() {
            sell(index);
        }
        table.dragging.set(None);
    };
    move || {
        let (coins, bar, seat) = economy(table)?;
        let texts = table.language.get();
        let full = bar.len() >= POWER_BAR_SLOTS;
        // Nothing is bought or sold once the game is over (the coins count as points then).
        let over = table
            .page
            .with(|p| p.as_ref().is_some_and(|p| p.view.status != Status::Playing));
        let selected_item = table.selected.get().and_then(|s| s.checked_sub(BAR_SLOTS));
        Some(view! {
            <div class="board-tools">
                <button type="button" data-testid="shop" aria-expanded=move || open.get().to_string()
                    disabled=over on:click=move |_| open.update(|o| *o = !*o)>{tr!(texts, shop.shop)}</button>
                <span class="coins-mine" data-testid="my-coins">{crate::i18n::coins(texts, coins)}</span>
                <button type="button" class="sell-area" data-testid="sell" disabled=over
                    title=tr!(texts, shop.sell_title)
                    on:dragover=move |ev: ev::DragEvent| ev.prevent_default()
                    on:drop=drop_to_sell
                    on:click=move |_| if let Some(index) = selected_item { sell(index) }>
                    {match selected_item {
                        Some(_) => tr!(texts, shop.sell_selected),
                        None => tr!(texts, shop.sell),
                    }}
                </button>
            </div>
            {move || (open.get() && !over).then(|| view! {
                <section class="card shop" data-testid="shop-panel" aria-label=tr!(texts, shop.shop)>
                    <ul>
                        {Power::ALL.into_iter().filter_map(|power| {
                            let price = power.price()?;
                            let short = coins < price;
                            Some(view! {
                                <li>
                                    <span class="power-icon">{icon(power)}</span>
                                    <span class="power-name">{power_name(texts, power)}</span>
                                    <span class="muted">{describe(texts, power)}</span>
                                    <button type="button" data-testid=format!("buy-{}", power.name().replace(' ', "-").to_ascii_lowercase())
                                        disabled=short || full
                                        on:click=move |_| { trade.run(Move::Buy { seat, power }); open.set(false); }>
                                        {tr!(texts, shop.buy, price)}
                                    </button>
                                </li>
                            })
                        }).collect_view()}
                    </ul>
                    {full.then(|| view! { <p class="warning">{tr!(texts, shop.bar_full)}</p> })}
                </section>
            })}
        })
    }
}

/// The power bar, above the hand: seven slots; tap or drag an item to use it, tap a drafted one
/// to take it back. On a shared device it stays hidden, like the hand, until its player shows it.
#[component]
pub fn PowerBar(table: Table, #[prop(into)] covered: Signal<bool>) -> impl IntoView {
    move || {
        let (_, bar, _) = economy(table)?;
        if covered.get() {
            return Some(view! { <Rewards table /> }.into_any());
        }
        let my_turn = table.my_turn();
        let texts = table.language.get();
        let items = (0..POWER_BAR_SLOTS)
            .map(|index| match bar.get(index).copied() {
                None => {
                    view! { <span class="power-slot empty" aria-hidden="true"></span> }.into_any()
                }
                Some(power) => {
                    let used = move || table.bar_item_used(index);
                    let selected = move || table.selected.get() == Some(BAR_SLOTS + index);
                    let class = move || {
                        let mut class = String::from("power-slot");
                        if used() {
                            class.push_str(" used");
                        }
                        if selected() {
                            class.push_str(" selected");
                        }
                        class
                    };
                    let click = move |_| {
                        if used() {
                            table.release_bar_item(index);
                        } else if power == Power::Swap {
                            if my_turn {
                                table.recall();
                                table.exchanging.set(Some(Vec::new()));
                            }
                        } else {
                            table.selected.update(|s| {
                                *s = (*s != Some(BAR_SLOTS + index)).then_some(BAR_SLOTS + index)
                            });
                        }
                    };
                    view! {
                        <button type="button" class=class draggable="true" data-power=power.name()
                            title=format!("{}: {}", power_name(texts, power), describe(texts, power))
                            aria-label=power_name(texts, power) aria-pressed=move || selected().to_string()
                            on:click=click
                            on:dragstart=move |_| table.dragging.set(Some(DragFrom::Bar(index)))
                            on:pointerdown=move |ev| super::finger::pick_up(table, DragFrom::Bar(index), &ev)
                            on:dragend=move |_| table.dragging.set(None)>
                            <span class="power-icon">{icon(power)}</span>
                            <span class="power-name">{power_name(texts, power)}</span>
                        </button>
                    }
                    .into_any()
                }
            })
            .collect_view();
        Some(
            view! {
                <div class="power-bar" role="group" aria-label=tr!(texts, shop.power_bar) data-testid="power-bar">{items}</div>
                <Rewards table />
            }
            .into_any(),
        )
    }
}

/// What the caller's latest play earned for the power bar, or lost to a full one. On a shared
/// device the page has moved on to the next player, so the one who played is named.
#[component]
fn Rewards(table: Table) -> impl IntoView {
    move || {
        let texts = table.language.get();
        let lines: Vec<String> = table.page.with(|p| {
            let p = p.as_ref()?;
            let view = &p.view;
            // The caller's own latest turn: the news stays through the opponent's reply, until
            // the caller moves again.
            let last = view
                .history
                .iter()
                .rev()
                .find(|t| p.card.my_seats.contains(&t.seat))?;
            let TurnEvent::Play { rewards, .. } = &last.event else {
                return None;
            };
            let mine = last.seat == view.seat;
            let name = crate::i18n::seat_label(texts, &p.card.seats, last.seat);
            Some(
                rewards
                    .iter()
                    .map(|r| {
                        let power = power_with_article(texts, r.power);
                        let bare = power_name(texts, r.power);
                        let name = name.clone();
                        match (r.kept, mine) {
                            (true, true) => tr!(texts, reward.you_earned, power),
                            (true, false) => tr!(texts, reward.they_earned, name, power),
                            (false, true) => tr!(texts, reward.you_lost, power = bare),
                            (false, false) => tr!(texts, reward.they_lost, name, power = bare),
                        }
                    })
                    .collect(),
            )
        })?;
        (!lines.is_empty())
            .then(|| view! { <p class="rewards" role="status" data-testid="rewards">{lines.join(" ")}</p> })
    }
}
