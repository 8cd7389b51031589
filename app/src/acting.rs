//! A server function a player's action calls (a move, joining a game, answering an invite), with
//! its answer and whether it is under way, for the views.
//!
//! Every such action is one Leptos action type underneath: Leptos compiles its action machinery
//! (the dispatch, the stored input and answer, their signals) once per input and answer type, and
//! the bundle every player downloads paid for that fourteen times over (issue 18). [`Acting`] on
//! top hands the input in and reads the answer out.

use std::any::Any;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use leptos::prelude::*;

/// An answer of some type.
type Done = Option<Arc<dyn Any + Send + Sync>>;
type Call = Pin<Box<dyn Future<Output = Done> + Send>>;
/// Turns an input (of the action's type) into its call.
type Make = Box<dyn Fn(Box<dyn Any + Send>) -> Call + Send + Sync>;

/// One dispatch's call, handed to the action that awaits it.
struct Dispatched(Mutex<Option<Call>>);

/// A player's action that calls the server with an `I` and is answered with a `T`.
pub struct Acting<I, T> {
    raw: Action<Dispatched, Done>,
    make: StoredValue<Make>,
    types: PhantomData<fn(I) -> T>,
}

impl<I, T> Clone for Acting<I, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I, T> Copy for Acting<I, T> {}

impl<I: Send + 'static, T: Clone + 'static> Acting<I, T> {
    /// Calls the server with `input`.
    pub fn dispatch(&self, input: I) {
        dispatch(self.raw, self.make, Box::new(input));
    }

    /// The last call's answer, once it has come (tracked).
    pub fn value(&self) -> Option<T> {
        self.raw
            .value()
            .get()
            .flatten()
            .and_then(|done| done.downcast_ref::<T>().cloned())
    }
}

impl<I, T> Acting<I, T> {
    /// Whether a call is under way.
    pub fn pending(&self) -> Memo<bool> {
        self.raw.pending()
    }

    /// How many calls have been answered (tracked).
    pub fn version(&self) -> RwSignal<usize> {
        self.raw.version()
    }
}

/// An action that calls `call(&input)` for each input dispatched.
pub fn acting<I, T, Fut>(call: impl Fn(&I) -> Fut + Send + Sync + 'static) -> Acting<I, T>
where
    I: Send + 'static,
    T: Send + Sync + 'static,
    Fut: Future<Output = T> + Send + 'static,
{
    let make: Make = Box::new(move |input| {
        let answer = input.downcast::<I>().ok().map(|input| call(&input));
        Box::pin(async move {
            let answer = answer?.await;
            Some(Arc::new(answer) as Arc<dyn Any + Send + Sync>)
        })
    });
    Acting {
        raw: erased(),
        make: StoredValue::new(make),
        types: PhantomData,
    }
}

/// The one action type behind every [`Acting`].
fn erased() -> Action<Dispatched, Done> {
    Action::new(|dispatched: &Dispatched| {
        let call = dispatched.0.lock().ok().and_then(|mut call| call.take());
        async move { call?.await }
    })
}

fn dispatch(raw: Action<Dispatched, Done>, make: StoredValue<Make>, input: Box<dyn Any + Send>) {
    if let Some(call) = make.try_with_value(|make| make(input)) {
        raw.dispatch(Dispatched(Mutex::new(Some(call))));
    }
}
