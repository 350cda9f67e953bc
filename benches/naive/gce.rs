//! Naive per-die loops of the GCE scenarios (see `mod.rs`).

use super::{NaiveLoop, Rng, Sums, d};

/// Every GCE loop written so far.
pub static LOOPS: &[NaiveLoop] = &[NaiveLoop {
    system: "gce",
    scenario: "shooting",
    metric: "p_eventually_out_of_action",
    run: shooting,
}];

/// A BS 3 Shoota at 8" (short range, +1) against T3, 1 Wound, a 5+ save:
/// to hit (a 1 always misses), the Ammo Roll on a natural 6 (4+), wound
/// on 4+, save on 5+, injury (1-2 Flesh Wound, 3-5 Down, 6 Out of
/// Action), and a Down warrior's Recovery rolls until it settles (1-2
/// recovers, 6 Out of Action).
fn shooting(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let first = d(rng, 6);
        if first == 6 {
            let _ammo_fails = d(rng, 6) < 4;
        }
        let out = first != 1
            && first >= 3
            && d(rng, 6) >= 4
            && d(rng, 6) < 5
            && match d(rng, 6) {
                1 | 2 => false,
                6 => true,
                _ => loop {
                    match d(rng, 6) {
                        6 => break true,
                        1 | 2 => break false,
                        _ => {}
                    }
                },
            };
        sums.add(u64::from(out));
    }
    sums
}
