//! Naive per-die loops of the krygothic scenarios (see `crate::systems::naive`), under
//! the registry's default readings: a 7+ target is the seed's table (a 6,
//! then the target less 4 on the re-roll), the wound target is reduced by
//! the number after the K, and a critical pass is three sixes.

use crate::systems::naive::{NaiveLoop, Rng, Sums, d};
use rand::RngExt;
use std::sync::OnceLock;

/// `dice`'s loop.
pub const DICE: NaiveLoop = NaiveLoop {
    metric: "p_pass",
    run: dice,
};

/// `ranged`'s loop.
pub const RANGED: NaiveLoop = NaiveLoop {
    metric: "mean_wounds",
    run: ranged,
};

/// `close_combat`'s loop.
pub const CLOSE_COMBAT: NaiveLoop = NaiveLoop {
    metric: "mean_wounds",
    run: close_combat,
};

/// `pinning`'s loop.
pub const PINNING: NaiveLoop = NaiveLoop {
    metric: "mean_ap_spent",
    run: pinning,
};

/// `pinning_fire`'s loop.
pub const PINNING_FIRE: NaiveLoop = NaiveLoop {
    metric: "p_pinned",
    run: pinning_fire,
};

/// `volley`'s loop.
pub const VOLLEY: NaiveLoop = NaiveLoop {
    metric: "p_out",
    run: volley,
};

/// `turns_to_kill`'s loop.
pub const TURNS_TO_KILL: NaiveLoop = NaiveLoop {
    metric: "mean_turns_played",
    run: turns_to_kill,
};

/// `fear`'s loop.
pub const FEAR: NaiveLoop = NaiveLoop {
    metric: "p_fail",
    run: fear,
};

/// `action_points`'s loop.
pub const ACTION_POINTS: NaiveLoop = NaiveLoop {
    metric: "mean_ap",
    run: action_points,
};

/// `order_combo`'s loop.
pub const ORDER_COMBO: NaiveLoop = NaiveLoop {
    metric: "p_completes",
    run: order_combo,
};

/// `damaged_structure`'s loop.
pub const DAMAGED_STRUCTURE: NaiveLoop = NaiveLoop {
    metric: "mean_ap_stuck",
    run: damaged_structure,
};

/// `close_combat_fight`'s loop.
pub const CLOSE_COMBAT_FIGHT: NaiveLoop = NaiveLoop {
    metric: "mean_defender_wounds",
    run: close_combat_fight,
};

/// `close_combat_game`'s loop.
pub const CLOSE_COMBAT_GAME: NaiveLoop = NaiveLoop {
    metric: "value_mean_wounds",
    run: close_combat_game,
};

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

/// Three units fire `ranged`'s pistol shot (RC 3 at 4": three dice against
/// 5) at a WILL 4 target: any die of 5+ is a hit; hit, the test is four
/// dice against 5 + 2 = 7 (a 6, then 3+); no hit from three units, against
/// 3 + 1 = 4. Pinned when no die meets it.
fn pinning_fire(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut hit = false;
        for _ in 0..3 {
            for _ in 0..3 {
                hit |= d(rng, 6) >= 5;
            }
        }
        let target = if hit { 7 } else { 4 };
        sums.add(u64::from(!attribute_check(rng, 4, target)));
    }
    sums
}

/// One volley at an Average Joe (Body 2, armour 1, Speed 3) with 2
/// wounds, from `wounds` taken before: an autocannon (6K2, S2 here) on RC
/// 3 at 10", three dice against 5, every kept die wounding (2 + 1 - 2 =
/// 1), at most 2, doubled on three sixes; then five Average Joes (RC 2)
/// with pistols (3K2S1) at 5", two dice against 5, at most 1 wound each.
/// Nobody fires at a target with 2 wounds. The wounds after it.
fn gun_and_pistols(rng: &mut Rng, mut wounds: u64) -> u64 {
    if wounds < 2 {
        let (mut passes, mut sixes) = (0, 0);
        for _ in 0..3 {
            let face = d(rng, 6);
            passes += u64::from(face >= 5);
            sixes += u64::from(face == 6);
        }
        let mut w = passes.min(2);
        if sixes == 3 {
            w *= 2;
        }
        wounds += w;
    }
    for _ in 0..5 {
        if wounds >= 2 {
            break;
        }
        let passes = u64::from(d(rng, 6) >= 5) + u64::from(d(rng, 6) >= 5);
        wounds += passes.min(1);
    }
    wounds
}

/// The volley above: the target out at 2 wounds.
fn volley(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        sums.add(u64::from(gun_and_pistols(rng, 0) >= 2));
    }
    sums
}

/// The volley above again and again, up to 8, until the target is out:
/// volleys fired.
fn turns_to_kill(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let (mut wounds, mut turns) = (0, 0);
        while turns < 8 && wounds < 2 {
            wounds = gun_and_pistols(rng, wounds);
            turns += 1;
        }
        sums.add(turns);
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

/// One close-combat die against `target`: whether it passes, and the face
/// it showed first (three sixes make a critical pass, every die a 1 a
/// critical fail).
fn cc_die(rng: &mut Rng, target: i32) -> (bool, u32) {
    let face = d(rng, 6);
    let pass = if target <= 1 {
        true
    } else if target <= 6 {
        face as i32 >= target
    } else {
        face == 6 && die_meets(rng, target - 4)
    };
    (pass, face)
}

/// One close-combat attack, its numbers after every modifier.
struct Strike {
    /// The attacker's CC: to-hit dice, and the defence dice's target.
    att_cc: i32,
    /// The attacker's Strength: to-hit passes kept at most.
    att_str: i32,
    /// The defender's CC: the to-hit dice's target.
    def_cc: i32,
    /// Defence dice.
    def_dice: i32,
    /// Defence passes kept at most (Speed, +2 dodging, Str blocking).
    def_keep: i32,
    /// A counter attack: the defence passes take no attacking die away.
    counter: bool,
    /// The wound target: the defender's Body + save.
    to_wound: i32,
    /// The wound target of the attacker's own unit after a critical fail.
    own_to_wound: i32,
    /// The dice left wound (a shove knocks back instead, a tackle with no
    /// object in the way does nothing).
    wounding: bool,
    /// A tackle: no dice roll after the to-hit and defence rolls.
    tackle: bool,
}

/// What a close-combat attack did.
struct Blow {
    /// Attacking dice left after the defence.
    left: u32,
    /// Wounds on the defender (doubled on a critical pass).
    wounds: u32,
    /// Wound dice passed (the wounds before doubling).
    passes: u32,
    critical_pass: bool,
    /// Wounds on the attacker's own unit after a critical fail.
    own_wounds: u32,
}

/// Steps 3 to 6: the to-hit dice against the defender's CC, at most Str
/// kept; the defence dice against the attacker's CC, each kept pass taking
/// an attacking die away; the dice left roll to wound. After a critical
/// fail the attack's dice (CC, at most Str) roll against the attacker's
/// own Body + save instead.
fn strike(rng: &mut Rng, s: &Strike) -> Blow {
    let (mut passes, mut sixes, mut all_ones) = (0, 0, true);
    for _ in 0..s.att_cc {
        let (pass, face) = cc_die(rng, s.def_cc);
        if pass {
            passes += 1;
        }
        if face == 6 {
            sixes += 1;
        }
        if face != 1 {
            all_ones = false;
        }
    }
    let critical_pass = sixes >= 3;
    let critical_fail = s.att_cc > 0 && all_ones;
    let hits = passes.min(s.att_str);
    let mut blocked = 0;
    for _ in 0..s.def_dice {
        if cc_die(rng, s.att_cc).0 {
            blocked += 1;
        }
    }
    let blocked = blocked.min(s.def_keep);
    let left = if s.counter {
        hits
    } else {
        hits - blocked.min(hits)
    };
    let mut blow = Blow {
        left: left as u32,
        wounds: 0,
        passes: 0,
        critical_pass,
        own_wounds: 0,
    };
    if critical_fail {
        if s.wounding {
            for _ in 0..s.att_cc.min(s.att_str) {
                if cc_die(rng, s.own_to_wound).0 {
                    blow.own_wounds += 1;
                }
            }
        }
    } else if !s.tackle {
        for _ in 0..left {
            if cc_die(rng, s.to_wound).0 {
                blow.passes += 1;
            }
        }
        if s.wounding {
            blow.wounds = if critical_pass {
                2 * blow.passes
            } else {
                blow.passes
            };
        }
    }
    blow
}

/// Average Joe (CC 2, Str 2, Speed 3, Body 2) charges Average Joe with 6
/// AP and leg sweeps every attack at 1 AP; the defender dodges (Speed 3 +
/// 2 kept) for 1 AP of its 3 while they last, then defends passively. The
/// charge's +2 CC holds for the first attack only. A leg sweep that gets a
/// die through costs the defender 1 AP getting up. The first wound of an
/// attack is free, the second costs 2 AP (paid while the AP last, and not
/// beyond the wound that takes the defender out); a critical pass doubles
/// the wounds. After a critical fail the attack's dice wound the attacker.
/// The fight ends when the attacker's AP are spent or a side has taken 2
/// wounds: the defender's wounds.
fn close_combat_fight(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let (mut att_ap, mut def_ap, mut att_wounds, mut def_wounds) = (6u32, 3u32, 0u32, 0u32);
        let mut first = true;
        while att_ap > 0 && att_wounds < 2 && def_wounds < 2 {
            att_ap -= 1;
            let dodging = def_ap > 0;
            if dodging {
                def_ap -= 1;
            }
            let blow = strike(
                rng,
                &Strike {
                    att_cc: if first { 2 + 2 } else { 2 },
                    att_str: 2,
                    def_cc: 2,
                    def_dice: 2,
                    def_keep: if dodging { 3 + 2 } else { 3 },
                    counter: false,
                    to_wound: 2,
                    own_to_wound: 2,
                    wounding: true,
                    tackle: false,
                },
            );
            first = false;
            att_wounds = (att_wounds + blow.own_wounds).min(2);
            if blow.passes > 0 {
                let room = 2 - def_wounds;
                let counted = if blow.critical_pass {
                    2
                } else if blow.passes >= 2 && room >= 2 && att_ap >= 2 {
                    att_ap -= 2;
                    2
                } else {
                    1
                };
                def_wounds = (def_wounds + counted).min(2);
            }
            if blow.left > 0 {
                def_ap = def_ap.saturating_sub(1);
            }
        }
        sums.add(u64::from(def_wounds));
    }
    sums
}

/// The attacks and defences open to two Average Joes without weapons.
#[derive(Clone, Copy, Debug)]
enum Choice {
    Kick,
    Punch,
    Shove,
    HeadButt,
    LegSweep,
    Tackle,
    Passive,
    Dodge,
    BreakOff,
    Block,
    Counter,
}

/// The attacker's and the defender's optimal mixed strategies at the game's
/// first test point (Average Joe against Average Joe, payoff mean wounds),
/// read off the scenario's exact `attack=k` and `defence=k` metrics. This
/// is the one call into the rule code: the solver runs once per process, before
/// any trial; every choice is then drawn and every die rolled here.
fn game_mixes() -> &'static [Vec<(Choice, f64)>; 2] {
    static MIXES: OnceLock<[Vec<(Choice, f64)>; 2]> = OnceLock::new();
    MIXES.get_or_init(|| {
        use crate::systems::Params;
        let p = Params::from_pairs(&[("attacker", "average_joe"), ("defender", "average_joe")]);
        let model = super::RULES
            .build("close_combat_game", &p, &Params::new())
            .expect("the game's first test point builds");
        let exact = model.exact().expect("the game is solved exactly");
        let mut mixes = [Vec::new(), Vec::new()];
        for (m, &q) in model.metrics().iter().zip(&exact) {
            let (side, choice) = match m.name.split_once('=') {
                Some(("attack", word)) => (0, word),
                Some(("defence", word)) => (1, word),
                _ => continue,
            };
            let choice = match choice {
                "kick" => Choice::Kick,
                "punch" => Choice::Punch,
                "shove" => Choice::Shove,
                "head_butt" => Choice::HeadButt,
                "leg_sweep" => Choice::LegSweep,
                "tackle" => Choice::Tackle,
                "passive" => Choice::Passive,
                "dodge" => Choice::Dodge,
                "break_off" => Choice::BreakOff,
                "block" => Choice::Block,
                "counter_attack" => Choice::Counter,
                other => panic!("the naive game loop does not play {other}"),
            };
            mixes[side].push((choice, q));
        }
        mixes
    })
}

/// A choice drawn from a mixed strategy.
fn draw(rng: &mut Rng, mix: &[(Choice, f64)]) -> Choice {
    let u: f64 = rng.random();
    let mut acc = 0.0;
    for &(choice, q) in mix {
        acc += q;
        if u < acc {
            return choice;
        }
    }
    mix.iter().rev().find(|x| x.1 > 0.0).expect("a mix").0
}

/// Average Joe attacks Average Joe, each choosing from its optimal mix
/// (see [`game_mixes`]): one attack, its wounds. Kick +1 CC, punch +1 Str,
/// shove +2 CC and no wounds, head butt -1 Body (its own too after a
/// critical fail), leg sweep as it is, tackle no wounds; dodge +2 Speed,
/// block Str for Speed, break off a passive roll (and against a leg sweep
/// not allowed: passive), counter attack takes no die away. At this point
/// the game has a saddle point: both mixes are pure (kick against the
/// passive defence), so only that branch is held to the exact value.
fn close_combat_game(rng: &mut Rng, n: u64) -> Sums {
    let [attacks, defences] = game_mixes();
    let mut sums = Sums::default();
    for _ in 0..n {
        let attack = draw(rng, attacks);
        let defence = draw(rng, defences);
        let mut s = Strike {
            att_cc: 2,
            att_str: 2,
            def_cc: 2,
            def_dice: 2,
            def_keep: 3,
            counter: false,
            to_wound: 2,
            own_to_wound: 2,
            wounding: true,
            tackle: false,
        };
        match attack {
            Choice::Kick => s.att_cc += 1,
            Choice::Punch => s.att_str += 1,
            Choice::Shove => {
                s.att_cc += 2;
                s.wounding = false;
            }
            Choice::HeadButt => {
                s.to_wound -= 1;
                s.own_to_wound -= 1;
            }
            Choice::LegSweep => {}
            Choice::Tackle => {
                s.wounding = false;
                s.tackle = true;
            }
            _ => unreachable!("a defence in the attacker's mix"),
        }
        match defence {
            Choice::Passive | Choice::BreakOff => {}
            Choice::Dodge => s.def_keep += 2,
            Choice::Block => s.def_keep = 2,
            Choice::Counter => s.counter = true,
            _ => unreachable!("an attack in the defender's mix"),
        }
        sums.add(u64::from(strike(rng, &s).wounds));
    }
    sums
}
