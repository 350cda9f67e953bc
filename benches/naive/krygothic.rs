//! Naive per-die loops of the krygothic scenarios (see `mod.rs`), under
//! the registry's default readings: a 7+ target is the seed's table (a 6,
//! then the target less 4 on the re-roll), the wound target is reduced by
//! the number after the K, and a critical pass is three sixes.

use super::{NaiveLoop, Rng, Sums, d};

/// Every krygothic loop.
pub static LOOPS: &[NaiveLoop] = &[
    NaiveLoop {
        system: "krygothic",
        scenario: "dice",
        metric: "p_pass",
        run: dice,
    },
    NaiveLoop {
        system: "krygothic",
        scenario: "ranged",
        metric: "mean_wounds",
        run: ranged,
    },
    NaiveLoop {
        system: "krygothic",
        scenario: "close_combat",
        metric: "mean_wounds",
        run: close_combat,
    },
    NaiveLoop {
        system: "krygothic",
        scenario: "pinning",
        metric: "mean_ap_spent",
        run: pinning,
    },
    NaiveLoop {
        system: "krygothic",
        scenario: "fear",
        metric: "p_fail",
        run: fear,
    },
    NaiveLoop {
        system: "krygothic",
        scenario: "action_points",
        metric: "mean_ap",
        run: action_points,
    },
    NaiveLoop {
        system: "krygothic",
        scenario: "order_combo",
        metric: "p_completes",
        run: order_combo,
    },
    NaiveLoop {
        system: "krygothic",
        scenario: "damaged_structure",
        metric: "mean_ap_stuck",
        run: damaged_structure,
    },
];

/// Whether one die meets `target`: up to 6 the face must reach it; a 7+
/// target needs a 6, then the re-roll must meet the target less 4 (so 11
/// is a 6, a 6, then 3+); a target of 1 or less always passes.
fn die_meets(rng: &mut Rng, target: i32) -> bool {
    if target <= 1 {
        return true;
    }
    let face = d(rng, 6) as i32;
    if target <= 6 {
        face >= target
    } else {
        face == 6 && die_meets(rng, target - 4)
    }
}

/// "Rolling attribute checks": `dice` D6, the highest against `target`
/// (the highest meets it exactly when some die does).
fn attribute_check(rng: &mut Rng, dice: u32, target: i32) -> bool {
    let mut pass = false;
    for _ in 0..dice {
        pass |= die_meets(rng, target);
    }
    pass
}

/// One die against 7: a 6, then 3 or more.
fn dice(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        sums.add(u64::from(die_meets(rng, 7)));
    }
    sums
}

/// A pistol (3K2S1, SR 2", LR 6") fired by RC 3 at 4" (no range modifier)
/// at Body 3, armour 3, Speed 3: three dice to hit against 5, keeping up
/// to 3 passes; three sixes are a critical pass (double wounds), all ones
/// a critical fail (no wounds here); each kept die rolls to wound against
/// Body + armour - K (3 + 3 - 2 = 4), at most S = 1 wound, doubled on a
/// critical pass.
fn ranged(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let (mut passes, mut sixes, mut ones) = (0, 0, 0);
        for _ in 0..3 {
            let face = d(rng, 6);
            if face >= 5 {
                passes += 1;
            }
            if face == 6 {
                sixes += 1;
            }
            if face == 1 {
                ones += 1;
            }
        }
        let kept = passes.min(3);
        let critical_pass = sixes >= 3;
        let critical_fail = ones == 3;
        let mut wounds = 0;
        if !critical_fail {
            let mut wound_passes = 0;
            for _ in 0..kept {
                if d(rng, 6) >= 4 {
                    wound_passes += 1;
                }
            }
            wounds = wound_passes.min(1);
            if critical_pass {
                wounds *= 2;
            }
        }
        sums.add(wounds);
    }
    sums
}

/// Average Joe kicks Average Joe, who dodges: the kick's CC 2 + 1 = 3
/// dice to hit against the defender's CC 2, keeping up to Strength 2
/// passes (three sixes a critical pass, all ones a critical fail); the
/// dodge rolls CC 2 dice against the attacker's CC 3, keeping up to
/// Speed 3 + 2, each pass taking an attacking die away; every die left
/// rolls to wound against Body 2 + save 0, each pass a wound, doubled on a
/// critical pass, none on a critical fail.
fn close_combat(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let (mut passes, mut sixes, mut ones) = (0, 0, 0);
        for _ in 0..3 {
            let face = d(rng, 6);
            if face >= 2 {
                passes += 1;
            }
            if face == 6 {
                sixes += 1;
            }
            if face == 1 {
                ones += 1;
            }
        }
        let hits = passes.min(2);
        let critical_pass = sixes >= 3;
        let critical_fail = ones == 3;
        let mut blocked = 0;
        for _ in 0..2 {
            if d(rng, 6) >= 3 {
                blocked += 1;
            }
        }
        let left = hits - blocked.min(5).min(hits);
        let mut wounds = 0;
        if !critical_fail {
            for _ in 0..left {
                if d(rng, 6) >= 2 {
                    wounds += 1;
                }
            }
            if critical_pass {
                wounds *= 2;
            }
        }
        sums.add(wounds);
    }
    sums
}

/// WILL 4 hit by two units: 4 dice against 5 + 1 = 6; a failed test is
/// re-rolled for 1 AP each, up to 12 AP, until it passes.
fn pinning(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut spent = 0;
        if !attribute_check(rng, 4, 6) {
            for k in 1..=12 {
                spent = k;
                if attribute_check(rng, 4, 6) {
                    break;
                }
            }
        }
        sums.add(spent);
    }
    sums
}

/// An Average Joe (WILL 3) facing fear: 3 dice against 6.
fn fear(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        sums.add(u64::from(!attribute_check(rng, 3, 6)));
    }
    sums
}

/// Ralim (Tactics Rating 15) with two squad leaders: the highest of their
/// D6 plus 15.
fn action_points(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let highest = d(rng, 6).max(d(rng, 6));
        sums.add(u64::from(highest + 15));
    }
    sums
}

/// Three units, one test each on attribute 3 against 4: all must pass
/// (the first failure stops the combo).
fn order_combo(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut completes = true;
        for _ in 0..3 {
            if !attribute_check(rng, 3, 4) {
                completes = false;
                break;
            }
        }
        sums.add(u64::from(completes));
    }
    sums
}

/// A unit on a damaged-structure marker: 4+ and the floor gives way; a 6
/// then a second 6 and the section collapses (the unit dies); otherwise it
/// is stuck for D6/2 AP, rounded down.
fn damaged_structure(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let first = d(rng, 6);
        let stuck = if first < 4 || (first == 6 && d(rng, 6) == 6) {
            0
        } else {
            d(rng, 6) / 2
        };
        sums.add(u64::from(stuck));
    }
    sums
}
