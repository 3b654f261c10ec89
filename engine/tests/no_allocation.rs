//! No heap allocation in legal-move generation or `apply` once the action buffer is warm: a
//! counting global allocator watches whole games.

use rand::Rng;
use shifu_engine::tofu_shifu::{Params, TofuShifu};
use shifu_engine::{rng_from_seed, Game};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts allocations made by the current thread while its counter is switched on, so tests
/// running in parallel do not disturb each other.
struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    if ON.try_with(|on| on.get()).unwrap_or(false) {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }
}

/// Runs `f` and returns how many allocations this thread made meanwhile.
fn count<T>(f: impl FnOnce() -> T) -> (T, usize) {
    COUNT.with(|c| c.set(0));
    ON.with(|on| on.set(true));
    let out = f();
    ON.with(|on| on.set(false));
    (out, COUNT.with(|c| c.get()))
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn play(g: &TofuShifu, seed: u64, buf: &mut Vec<shifu_engine::tofu_shifu::Action>) -> u64 {
    let mut rng = rng_from_seed(seed);
    let mut pick = rng_from_seed(seed + 99);
    let mut s = g.new_state(&mut rng);
    let mut steps = 0;
    while g.to_move(&s).is_some() {
        g.legal_actions(&s, buf);
        let a = buf[pick.gen_range(0..buf.len())];
        g.apply(&mut s, a, &mut rng);
        steps += 1;
    }
    std::hint::black_box(g.outcome(&s));
    steps
}

#[test]
fn whole_games_allocate_nothing_once_the_buffer_is_warm() {
    for players in 2..=4u8 {
        let g = TofuShifu::with_params(Params::with_players(players)).unwrap();
        let mut buf = Vec::with_capacity(256);
        play(&g, 1, &mut buf); // warm-up (debug builds also warm their own check buffer)
        let (steps, allocations) =
            count(|| (2..7).map(|seed| play(&g, seed, &mut buf)).sum::<u64>());
        assert!(steps > 5_000, "{steps} steps");
        assert_eq!(allocations, 0, "{players} players, {steps} steps");
    }
}

#[test]
fn the_counter_sees_allocations() {
    // Guards the test above against a counter that never counts.
    let (v, allocations) = count(|| std::hint::black_box(Vec::<u64>::with_capacity(10)));
    drop(v);
    assert_eq!(allocations, 1);
}
