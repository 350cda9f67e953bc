//! Naive per-die loops of the skirmish20 scenarios (see `crate::systems::naive`).

use crate::systems::naive::{NaiveLoop, Rng, Sums, d};

/// `shooting`'s loop.
pub const SHOOTING: NaiveLoop = NaiveLoop {
    metric: "p_dead",
    run: shooting,
};

/// `effect_of_hit`'s loop.
pub const EFFECT_OF_HIT: NaiveLoop = NaiveLoop {
    metric: "p_dead",
    run: effect_of_hit,
};

/// `vehicle_damage`'s loop.
pub const VEHICLE_DAMAGE: NaiveLoop = NaiveLoop {
    metric: "mean_passengers_dead",
    run: vehicle_damage,
};

/// `quick_draw`'s loop.
pub const QUICK_DRAW: NaiveLoop = NaiveLoop {
    metric: "p_a_first",
    run: quick_draw,
};

/// `hit_allocation`'s loop.
pub const HIT_ALLOCATION: NaiveLoop = NaiveLoop {
    metric: "mean_at_hero",
    run: hit_allocation,
};

/// `necron_repair`'s loop.
pub const NECRON_REPAIR: NaiveLoop = NaiveLoop {
    metric: "mean_repaired",
    run: necron_repair,
};

/// `close_combat`'s loop.
pub const CLOSE_COMBAT: NaiveLoop = NaiveLoop {
    metric: "p_defender_runs",
    run: close_combat,
};

/// `squad_under_fire`'s loop.
pub const SQUAD_UNDER_FIRE: NaiveLoop = NaiveLoop {
    metric: "p_broken",
    run: squad_under_fire,
};

/// `volley`'s loop.
pub const VOLLEY: NaiveLoop = NaiveLoop {
    metric: "p_broken",
    run: volley,
};

/// `turns_to_kill`'s loop.
pub const TURNS_TO_KILL: NaiveLoop = NaiveLoop {
    metric: "p_taken_out",
    run: turns_to_kill,
};

/// `overwatch`'s loop.
pub const OVERWATCH: NaiveLoop = NaiveLoop {
    metric: "p_stopped",
    run: overwatch,
};

/// A common trooper's Effect of Hit Chart (D6): 1-2 duck back, 3-4
/// wounded, 5-6 dead; a second wound kills. Returns (wounds, dead) after
/// one hit.
fn trooper_hit(rng: &mut Rng, wounds: u32, dead: bool) -> (u32, bool) {
    match d(rng, 6) {
        1 | 2 => (wounds, dead),
        3 | 4 => (wounds + 1, dead || wounds + 1 >= 2),
        _ => (wounds, true),
    }
}

/// A Bolt Rifle (std armour 8, 1/2 AP: 1 AP within 12") at 12": two
/// firings with the firer's 3 AP (at most 2 on firing), a D20 each, 8 or
/// less hits and penetrates (a 1 always), a 20 jams and ends the turn's
/// fire; each hit rolls on the Effect of Hit Chart.
fn shooting(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let (mut wounds, mut dead) = (0, false);
        for _ in 0..2 {
            let roll = d(rng, 20);
            if roll == 20 {
                break;
            }
            if roll == 1 || roll <= 8 {
                (wounds, dead) = trooper_hit(rng, wounds, dead);
            }
        }
        sums.add(u64::from(dead));
    }
    sums
}

/// Two hits on an unwounded common trooper.
fn effect_of_hit(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let (mut wounds, mut dead) = (0, false);
        for _ in 0..2 {
            if !dead {
                (wounds, dead) = trooper_hit(rng, wounds, dead);
            }
        }
        sums.add(u64::from(dead));
    }
    sums
}

/// A Chimera (one minor gun) takes three penetrating hits with four
/// troopers aboard: a D10 each on the Vehicle Damage Table, damage already
/// suffered takes the next one up; an 8 (immobilised, all guns destroyed)
/// makes every passenger roll on the Effect of Hit Chart at -1, a 9
/// (burns) unmodified, a 10 (explodes) kills them all; a burning or
/// exploded vehicle takes no more.
fn vehicle_damage(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let minor_guns = 1;
        let mut minor_out = 0;
        let (mut biggest_out, mut immobilised, mut guns_destroyed) = (false, false, false);
        let mut wrecked = false;
        let mut wounds = [0u32; 4];
        let mut dead = [false; 4];
        for _ in 0..3 {
            if wrecked {
                continue;
            }
            // 1-2 bounce, 3-4 stunned: nothing lasting
            let mut result = d(rng, 10);
            loop {
                let suffered = match result {
                    5 => minor_out >= minor_guns || guns_destroyed,
                    6 => biggest_out || guns_destroyed,
                    7 => immobilised,
                    8 => immobilised && guns_destroyed,
                    _ => false,
                };
                if !suffered {
                    break;
                }
                result += 1;
            }
            let passenger_modifier = match result {
                5 => {
                    minor_out += 1;
                    None
                }
                6 => {
                    biggest_out = true;
                    None
                }
                7 => {
                    immobilised = true;
                    None
                }
                8 => {
                    immobilised = true;
                    guns_destroyed = true;
                    Some(-1)
                }
                9 => {
                    wrecked = true;
                    Some(0)
                }
                10 => {
                    wrecked = true;
                    dead = [true; 4];
                    None
                }
                _ => None,
            };
            if let Some(modifier) = passenger_modifier {
                for p in 0..4 {
                    if dead[p] {
                        continue;
                    }
                    let roll = d(rng, 6) as i32 + modifier;
                    if roll >= 5 {
                        dead[p] = true;
                    } else if roll >= 3 {
                        wounds[p] += 1;
                        if wounds[p] >= 2 {
                            dead[p] = true;
                        }
                    }
                }
            }
        }
        sums.add(dead.iter().filter(|&&x| x).count() as u64);
    }
    sums
}

/// A in std armour (+4) with a hand gun (+2) against B in power armour
/// (+2) with a rifle (0): D10 + modifiers each, the higher fires first.
fn quick_draw(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let a = d(rng, 10) + 4 + 2;
        let b = d(rng, 10) + 2;
        sums.add(u64::from(a > b));
    }
    sums
}

/// Twelve attacks into a squad with a Hero: a D6 each, a 6 goes to the
/// Hero.
fn hit_allocation(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut at_hero = 0;
        for _ in 0..12 {
            if d(rng, 6) == 6 {
                at_hero += 1;
            }
        }
        sums.add(at_hero);
    }
    sums
}

/// Four Necrons destroyed last turn, one of them by a D20 roll of 1 (no
/// repair): the other three stand back up on a D6 of 5 or 6.
fn necron_repair(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut repaired = 0;
        for necron in 0..4 {
            let destroyed_on_a_one = necron == 0;
            if !destroyed_on_a_one && d(rng, 6) >= 5 {
                repaired += 1;
            }
        }
        sums.add(repaired);
    }
    sums
}

/// Three Aliens (claws: 2 attacks each, 3 against power armour; std
/// armour, aftermath +1) on a Hero with a power weapon (12 against std
/// armour, one attack at the first alien): every blow at once, a D20 at or
/// under the chart value hits and rolls on the Effect of Hit Chart (the
/// Hero's column: 1-3 duck back, 4-5 wounded, 6 dead). Then the side with
/// more casualties (dead or wounded), if at least half its figures and not
/// all dead, rolls a D6 (+ its aftermath): 1-3 it runs.
fn close_combat(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let (mut hero_wounds, mut hero_dead) = (0, false);
        for _ in 0..3 * 2 {
            if d(rng, 20) <= 3 {
                match d(rng, 6) {
                    1..=3 => {}
                    4 | 5 => {
                        if !hero_dead {
                            hero_wounds += 1;
                            hero_dead = hero_wounds >= 2;
                        }
                    }
                    _ => hero_dead = true,
                }
            }
        }
        let (mut alien_wounds, mut alien_dead) = (0, false);
        if d(rng, 20) <= 12 {
            (alien_wounds, alien_dead) = trooper_hit(rng, alien_wounds, alien_dead);
        }
        let hero_casualty = hero_dead || hero_wounds >= 1;
        let alien_casualty = alien_dead || alien_wounds >= 1;
        let mut hero_runs = false;
        if hero_casualty && !alien_casualty {
            // one figure, all a casualty: it tests unless dead
            if !hero_dead {
                hero_runs = d(rng, 6) <= 3;
            }
        } else if alien_casualty && !hero_casualty {
            // one of three aliens is less than half: no test
        }
        sums.add(u64::from(hero_runs));
    }
    sums
}

/// Three shooters with Laser / Assault Rifles (std armour 7; 1/2 AP, so 2
/// AP at 20", one firing a turn) fire for three turns into five troopers
/// led by a Hero. Each firing: a D6 picks the Hero on a 6 while both he and
/// his men stand; a D20, 20 jams (the 1 AP left cannot clear it, so next
/// turn's first 2 AP unjam and that shooter does not fire), 1 or at most 7
/// hits; the Effect of Hit Chart (the Hero's column for him); a kill goes
/// to an unwounded trooper while there is one, a wound too (onto a wounded
/// one, killing him, only when none is unwounded). At the end of a turn
/// the squad runs (and is fired at no more) with fewer than 35% standing.
fn squad_under_fire(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let size = 6;
        let (mut healthy, mut wounded) = (5u32, 0u32);
        let (mut hero_standing, mut hero_wounded) = (true, false);
        let mut jammed = [false; 3];
        let mut running = false;
        for _turn in 0..3 {
            if running {
                break;
            }
            for shooter_jammed in &mut jammed {
                if *shooter_jammed {
                    *shooter_jammed = false;
                    continue;
                }
                let troopers = healthy + wounded;
                if troopers == 0 && !hero_standing {
                    continue;
                }
                let at_hero = if hero_standing && troopers > 0 {
                    d(rng, 6) == 6
                } else {
                    hero_standing
                };
                let roll = d(rng, 20);
                if roll == 20 {
                    *shooter_jammed = true;
                    continue;
                }
                if roll != 1 && roll > 7 {
                    continue;
                }
                let effect = d(rng, 6);
                if at_hero {
                    match effect {
                        1..=3 => {}
                        4 | 5 => {
                            if hero_wounded {
                                hero_standing = false;
                            }
                            hero_wounded = true;
                        }
                        _ => hero_standing = false,
                    }
                } else {
                    match effect {
                        1 | 2 => {}
                        3 | 4 => {
                            if healthy > 0 {
                                healthy -= 1;
                                wounded += 1;
                            } else {
                                wounded -= 1;
                            }
                        }
                        _ => {
                            if healthy > 0 {
                                healthy -= 1;
                            } else {
                                wounded -= 1;
                            }
                        }
                    }
                }
            }
            let standing = healthy + wounded + u32::from(hero_standing);
            if 100 * standing < 35 * size {
                running = true;
            }
        }
        sums.add(u64::from(running));
    }
    sums
}

/// Five Necrons (power armour) and their Lord, by figure: (wounded,
/// destroyed, dead for good), the Lord last.
#[derive(Clone, Copy, Default)]
struct Necron {
    wounded: bool,
    destroyed: bool,
    dead: bool,
}

impl Necron {
    fn up(&self) -> bool {
        !self.destroyed && !self.dead
    }
}

/// One firing at the Necrons: the D6 picks the Lord on a 6 (while his men
/// stand), the D20 hits at `value` or less (a 1 always; a 1 kills for
/// good), a 20 jams; the hit's D6 on the Effect of Hit Chart (troopers 1-2
/// duck back, 3-4 wounded, 5-6 dead; the Lord 1-3, 4-5, 6); a Wounded
/// result goes to an unwounded trooper while there is one, a kill to an
/// unwounded one. A blast covers `others` more troopers standing besides
/// the one aimed at (counted as it goes off), each its own D20 against the
/// same value (a 20 misses). Returns false on a 20.
fn fire_at_necrons(rng: &mut Rng, squad: &mut [Necron; 6], value: u32, others: usize) -> bool {
    let men_up = squad[..5].iter().filter(|n| n.up()).count();
    let lord_up = squad[5].up();
    if men_up == 0 && !lord_up {
        return true;
    }
    let at_lord = if lord_up && men_up > 0 {
        d(rng, 6) == 6
    } else {
        lord_up
    };
    let roll = d(rng, 20);
    if roll == 20 {
        return false;
    }
    let covered = others.min(men_up - usize::from(!at_lord));
    if roll == 1 || roll <= value {
        hit_necron(rng, squad, at_lord, roll == 1);
    }
    for _ in 0..covered {
        let own = d(rng, 20);
        if own != 20 && (own == 1 || own <= value) {
            hit_necron(rng, squad, false, own == 1);
        }
    }
    true
}

/// A hit's D6 on the Effect of Hit Chart, on the Lord or his men.
fn hit_necron(rng: &mut Rng, squad: &mut [Necron; 6], at_lord: bool, one: bool) {
    let effect = d(rng, 6);
    let kill = |n: &mut Necron| {
        if one {
            n.dead = true;
        } else {
            n.destroyed = true;
        }
    };
    if at_lord {
        let lord = &mut squad[5];
        match effect {
            1..=3 => {}
            4 | 5 if !lord.wounded => lord.wounded = true,
            _ => kill(lord),
        }
        return;
    }
    let unwounded = (0..5).find(|&i| squad[i].up() && !squad[i].wounded);
    let wounded = (0..5).find(|&i| squad[i].up() && squad[i].wounded);
    if unwounded.is_none() && wounded.is_none() {
        return;
    }
    match effect {
        1 | 2 => {}
        3 | 4 => match unwounded {
            Some(i) => squad[i].wounded = true,
            None => kill(&mut squad[wounded.unwrap_or(0)]),
        },
        _ => kill(&mut squad[unwounded.or(wounded).unwrap_or(0)]),
    }
}

/// One turn of four Bolt Rifles (8 or less against power armour: 2
/// firings of 1 AP at 10"), a Heavy Bolter (3 or less, one 2-AP firing)
/// (its large blast over one more trooper) and a Plasma Pistol (6 or
/// less, 2 firings, lost for good on a 20), in that order, at the Necrons. `jammed` (the rifles' and the Heavy
/// Bolter's) carry a jam into the next turn, where 2 AP go on clearing it;
/// `pistol` is false once lost. Then the wounded self-heal and the squad
/// phases out below 35% of its six. Returns whether it phased out.
fn necron_turn(
    rng: &mut Rng,
    squad: &mut [Necron; 6],
    jammed: &mut [bool; 5],
    pistol: &mut bool,
) -> bool {
    // destroyed Necrons roll to repair on 5+, the Lord first
    for i in [5, 0, 1, 2, 3, 4] {
        if squad[i].destroyed {
            squad[i].destroyed = false;
            if d(rng, 6) < 5 {
                squad[i].dead = true;
            }
        }
    }
    for (k, jam) in jammed.iter_mut().enumerate() {
        let (value, cost) = if k < 4 { (4, 1) } else { (3, 2) };
        // 3 AP, at most 2 on firing, 2 of them on a jam from last turn
        let budget: u32 = if *jam { 1 } else { 2 };
        let was = *jam;
        *jam = false;
        let mut spent = if was { 2 } else { 0 };
        for _ in 0..budget / cost {
            spent += cost;
            if !fire_at_necrons(rng, squad, value, if k < 4 { 0 } else { 1 }) {
                // cleared at once with 2 AP left this turn, else next turn
                *jam = 3 - spent < 2;
                break;
            }
        }
    }
    if *pistol {
        for _ in 0..2 {
            if !fire_at_necrons(rng, squad, 6, 0) {
                *pistol = false;
                break;
            }
        }
    }
    for n in squad.iter_mut() {
        n.wounded = false;
    }
    let standing = squad.iter().filter(|n| n.up()).count();
    100 * standing < 35 * 6
}

/// The riflemen, Heavy Bolter and sergeant's one turn at five Necrons and
/// their Lord: P(phased out).
fn volley(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut squad = [Necron::default(); 6];
        let broken = necron_turn(rng, &mut squad, &mut [false; 5], &mut true);
        sums.add(u64::from(broken));
    }
    sums
}

/// The same every turn for 8 turns (repair, self-heal, jams and the
/// pistol lost between): P(phased out by then).
fn turns_to_kill(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut squad = [Necron::default(); 6];
        let (mut jammed, mut pistol) = ([false; 5], true);
        let mut broken = false;
        for _ in 0..8 {
            broken = necron_turn(rng, &mut squad, &mut jammed, &mut pistol);
            if broken {
                break;
            }
        }
        sums.add(u64::from(broken));
    }
    sums
}

/// Two figures on Overwatch with laser assault rifles (std armour 7, 1 AP
/// within 12": two firings each, a 20 jams and ends that firer's fire) at
/// a Gaunt (a common trooper who ignores Duck Backs) charging 2D6" at a
/// figure 6" away: -2 to hit when it moves more than 3"; stopped when dead
/// or short.
fn overwatch(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let moved = d(rng, 6) + d(rng, 6);
        let value = if moved.min(6) > 3 { 5 } else { 7 };
        let (mut wounds, mut dead) = (0, false);
        for _ in 0..2 {
            for _ in 0..2 {
                if dead {
                    break;
                }
                let roll = d(rng, 20);
                if roll == 20 {
                    break;
                }
                if roll == 1 || roll <= value {
                    (wounds, dead) = trooper_hit(rng, wounds, dead);
                }
            }
        }
        sums.add(u64::from(dead || moved < 6));
    }
    sums
}
