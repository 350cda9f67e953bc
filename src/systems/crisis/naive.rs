//! Naive per-die loops of the crisis scenarios (see `crate::systems::naive`). Every Skill
//! roll is the registry's default reading: 2D6 + skill, one Extra per 4
//! points above the difficulty.

use crate::systems::naive::{NaiveLoop, Rng, Sums, d};

/// `check`'s loop.
pub const CHECK: NaiveLoop = NaiveLoop {
    metric: "mean_extras",
    run: check,
};

/// `turn_order`'s loop.
pub const TURN_ORDER: NaiveLoop = NaiveLoop {
    metric: "p_pc_first",
    run: turn_order,
};

/// `attack`'s loop.
pub const ATTACK: NaiveLoop = NaiveLoop {
    metric: "mean_health_lost",
    run: attack,
};

/// `fight`'s loop.
pub const FIGHT: NaiveLoop = NaiveLoop {
    metric: "mean_health_lost",
    run: fight,
};

/// `healing`'s loop.
pub const HEALING: NaiveLoop = NaiveLoop {
    metric: "mean_days",
    run: healing,
};

/// `damage`'s loop.
pub const DAMAGE: NaiveLoop = NaiveLoop {
    metric: "mean_wounds",
    run: damage,
};

/// `scatter`'s loop.
pub const SCATTER: NaiveLoop = NaiveLoop {
    metric: "p_thrower_caught",
    run: scatter,
};

/// Skill 2 against DL 4 (Normal): the Extras, 0 on a failure.
fn check(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let total = d(rng, 6) + d(rng, 6) + 2;
        let extras = if total >= 4 { (total - 4) / 4 } else { 0 };
        sums.add(u64::from(extras));
    }
    sums
}

/// A PC with Mind 2 against an NPC with Mind 3; ties go to the PC.
fn turn_order(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let pc = d(rng, 6) + d(rng, 6) + 2;
        let npc = d(rng, 6) + d(rng, 6) + 3;
        sums.add(u64::from(pc >= npc));
    }
    sums
}

/// A target's Health, non-lethal wounds, armour Durability and whether a
/// hit of more than 12 wounds landed.
struct Target {
    health: i32,
    full_health: i32,
    nonlethal: i32,
    durability: i32,
    overwhelmed: bool,
}

impl Target {
    /// A hit of `damage` through armour of DR `dr`: the armour blocks up
    /// to its DR and its Durability left (taken off the Durability); a hit
    /// reduced to 0 still deals a non-lethal wound; Health stops at -10.
    /// Returns the lethal wounds dealt.
    fn take(&mut self, damage: i32, dr: i32) -> i32 {
        let blocked = if self.durability > 0 {
            dr.min(damage).min(self.durability)
        } else {
            0
        };
        self.durability -= blocked;
        let wounds = damage - blocked;
        if wounds <= 0 {
            self.nonlethal = (self.nonlethal + 1).min(self.full_health + 1);
            0
        } else {
            self.health = (self.health - wounds).max(-10);
            if wounds > 12 {
                self.overwhelmed = true;
            }
            wounds
        }
    }

    /// Dying, dead, knocked out by non-lethal wounds or overwhelmed.
    fn incapacitated(&self) -> bool {
        self.health <= 0 || self.nonlethal > self.health || self.overwhelmed
    }
}

/// One ranged attack of `index` (0 first, each RoF attack -2 more) with
/// `skill` against DL 4: on a hit, `damage` + its Extras through the armour.
fn ranged_attack(rng: &mut Rng, target: &mut Target, skill: i32, index: i32, damage: i32, dr: i32) {
    let total = (d(rng, 6) + d(rng, 6)) as i32 + skill - 2 * index;
    if total >= 4 {
        let extras = (total - 4) / 4;
        target.take(damage + extras, dr);
    }
}

/// Skill 3, RoF 3 (three attacks at 0, -2, -4) against DL 4, damage 5 +
/// Extras through DR 3 / Durability 10 on Health 10.
fn attack(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut target = Target {
            health: 10,
            full_health: 10,
            nonlethal: 0,
            durability: 10,
            overwhelmed: false,
        };
        for index in 0..3 {
            ranged_attack(rng, &mut target, 3, index, 5, 3);
        }
        sums.add((10 - target.health) as u64);
    }
    sums
}

/// Skill 2, damage 4, RoF 3 with the first attack at 2 AP, every attack
/// the AP allow each turn (4 AP a turn, at most 6, leftovers carried) until
/// the target (Health 8, DR 2, Durability 6) is incapacitated; every
/// planned attack of a turn is rolled.
fn fight(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut target = Target {
            health: 8,
            full_health: 8,
            nonlethal: 0,
            durability: 6,
            overwhelmed: false,
        };
        let mut carried = 0;
        while !target.incapacitated() {
            let ap = (carried + 4).min(6);
            let attacks = if ap < 2 { 0 } else { 3.min(1 + ap - 2) };
            carried = if attacks == 0 {
                ap
            } else {
                ap - (2 + attacks - 1)
            };
            for index in 0..attacks {
                ranged_attack(rng, &mut target, 2, index, 4, 2);
            }
        }
        sums.add((8 - target.health) as u64);
    }
    sums
}

/// Health 10 with 4 wounds, Body 1, no medical attention (-2), no Medicine
/// check: a daily 2D6 + Body - 2 reaching 4 heals a wound; snake eyes (a
/// critical failure) adds one; days until no wound is left (or Health -10).
fn healing(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut wounds = 4;
        let mut days = 0u64;
        while wounds > 0 && wounds < 10 + 10 {
            let dice = d(rng, 6) + d(rng, 6);
            if dice as i32 + 1 - 2 >= 4 {
                wounds -= 1;
            } else if dice == 2 {
                wounds += 1;
            }
            days += 1;
        }
        sums.add(days);
    }
    sums
}

/// One hit of a skill 3 attacker with a 5-damage weapon on Health 10 in
/// armour of DR 3 / Durability 10: the attack (2D6 + 3 against DL 4) is
/// rolled until it hits (the scenario is the damage of a hit), its Extras
/// add to the damage, and the armour takes its share: the lethal wounds.
fn damage(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let extras = loop {
            let total = d(rng, 6) + d(rng, 6) + 3;
            if total >= 4 {
                break (total - 4) / 4;
            }
        };
        let mut target = Target {
            health: 10,
            full_health: 10,
            nonlethal: 0,
            durability: 10,
            overwhelmed: false,
        };
        let wounds = target.take(5 + extras as i32, 3);
        sums.add(wounds as u64);
    }
    sums
}

/// A grenade thrown with Athletics 0 (2D6 against DL 4), 3 squares from
/// the thrower, range increment 2, blast radius 1 on squares: a hit lands
/// on the target; a miss rolls a d8 for the direction (1 straight back at
/// the thrower, 5 away from him, 2 to 8 clockwise round the target) and
/// lands 2 squares that way. The thrower is caught when the blast lands
/// within 1 square of him (a diagonal step counts as one square).
fn scatter(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        // squares right of and ahead of the target, as the thrower sees it
        let (right, ahead): (i32, i32) = if d(rng, 6) + d(rng, 6) >= 4 {
            (0, 0)
        } else {
            match d(rng, 8) {
                1 => (0, -2),
                2 => (-2, -2),
                3 => (-2, 0),
                4 => (-2, 2),
                5 => (0, 2),
                6 => (2, 2),
                7 => (2, 0),
                _ => (2, -2),
            }
        };
        // the thrower stands 3 squares straight back, at (0, -3)
        let from_thrower = right.abs().max((ahead + 3).abs());
        sums.add(u64::from(from_thrower <= 1));
    }
    sums
}

/// `volley`'s loop.
pub const VOLLEY: NaiveLoop = NaiveLoop {
    metric: "p_incapacitated",
    run: volley,
};

/// `turns_to_kill`'s loop.
pub const TURNS_TO_KILL: NaiveLoop = NaiveLoop {
    metric: "p_taken_out",
    run: turns_to_kill,
};

/// One attack of an ambusher: `skill` on 2D6 with the `index`-th RoF
/// penalty against `dl`, on a hit `damage` + Extras through DR 1.
fn ambusher(rng: &mut Rng, target: &mut Target, skill: i32, index: i32, dl: i32, damage: i32) {
    let total = (d(rng, 6) + d(rng, 6)) as i32 + skill - 2 * index;
    if total >= dl {
        let extras = (total - dl) / 4;
        target.take(damage + extras, 1);
    }
}

/// The ambush's target: Health 14, armour DR 1 with Durability 4.
fn ambushed() -> Target {
    Target {
        health: 14,
        full_health: 14,
        nonlethal: 0,
        durability: 4,
        overwhelmed: false,
    }
}

/// One round of the ambush: two gunmen (skill 1, damage 3, `shots`
/// attacks each at DL 4), a grenadier (skill 2, RNG -1, damage 4 without
/// Extras; a miss scatters on a d8) then a knifeman (skill 2, damage 3,
/// against Parry 7); each holds if the target is already down when his
/// turn begins.
fn ambush_round(rng: &mut Rng, target: &mut Target, shots: i32) {
    for _ in 0..2 {
        if target.incapacitated() {
            continue;
        }
        for index in 0..shots {
            ambusher(rng, target, 1, index, 4, 3);
        }
    }
    if !target.incapacitated() {
        // skill 2, RNG penalty 1, against DL 4
        let total = (d(rng, 6) + d(rng, 6)) as i32 + 2 - 1;
        if total >= 4 {
            target.take(4, 1);
        } else {
            d(rng, 8);
        }
    }
    if !target.incapacitated() {
        ambusher(rng, target, 2, 0, 7, 3);
    }
}

/// The ambush, one round, two attacks a gunman: P(the target is
/// incapacitated).
fn volley(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut target = ambushed();
        ambush_round(rng, &mut target, 2);
        sums.add(u64::from(target.incapacitated()));
    }
    sums
}

/// The ambush round after round (8 at most), the gunmen firing all the
/// RoF 2 their AP allow: 4 AP a round pay for both (1 + 1), carrying 2,
/// then 6, which still pays for the two: P(down within 8 rounds).
fn turns_to_kill(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut target = ambushed();
        let mut down = false;
        for _ in 0..8 {
            ambush_round(rng, &mut target, 2);
            if target.incapacitated() {
                down = true;
                break;
            }
        }
        sums.add(u64::from(down));
    }
    sums
}
