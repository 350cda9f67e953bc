//! Naive per-die loops of the GCE scenarios (see `crate::systems::naive`).

use crate::systems::naive::{NaiveLoop, Rng, Sums, d};

/// `shooting`'s loop.
pub const SHOOTING: NaiveLoop = NaiveLoop {
    metric: "p_eventually_out_of_action",
    run: shooting,
};

/// `volley`'s loop.
pub const VOLLEY: NaiveLoop = NaiveLoop {
    metric: "p_out_of_action",
    run: volley,
};

/// `turns_to_kill`'s loop.
pub const TURNS_TO_KILL: NaiveLoop = NaiveLoop {
    metric: "p_taken_out",
    run: turns_to_kill,
};

/// `grenade`'s loop.
pub const GRENADE: NaiveLoop = NaiveLoop {
    metric: "p_delayed",
    run: grenade,
};

/// `fire`'s loop.
pub const FIRE: NaiveLoop = NaiveLoop {
    metric: "p_out_of_action",
    run: fire,
};

/// `fall`'s loop.
pub const FALL: NaiveLoop = NaiveLoop {
    metric: "p_out_of_action",
    run: fall,
};

/// `jump`'s loop.
pub const JUMP: NaiveLoop = NaiveLoop {
    metric: "p_out_of_action",
    run: jump,
};

/// `edge`'s loop.
pub const EDGE: NaiveLoop = NaiveLoop {
    metric: "p_out_of_action",
    run: edge,
};

/// `terror`'s loop.
pub const TERROR: NaiveLoop = NaiveLoop {
    metric: "p_runs",
    run: terror,
};

/// `stupidity`'s loop.
pub const STUPIDITY: NaiveLoop = NaiveLoop {
    metric: "p_out_of_action",
    run: stupidity,
};

/// `bottle`'s loop.
pub const BOTTLE: NaiveLoop = NaiveLoop {
    metric: "mean_dropped",
    run: bottle,
};

/// `thrust`'s loop.
pub const THRUST: NaiveLoop = NaiveLoop {
    metric: "p_reaches",
    run: thrust,
};

/// `out_of_control`'s loop.
pub const OUT_OF_CONTROL: NaiveLoop = NaiveLoop {
    metric: "p_regained",
    run: out_of_control,
};

/// `vehicle_hazard`'s loop.
pub const VEHICLE_HAZARD: NaiveLoop = NaiveLoop {
    metric: "p_out_of_action",
    run: vehicle_hazard,
};

/// `vehicle_hits`'s loop.
pub const VEHICLE_HITS: NaiveLoop = NaiveLoop {
    metric: "mean_penetrating",
    run: vehicle_hits,
};

/// `vehicle_fire`'s loop.
pub const VEHICLE_FIRE: NaiveLoop = NaiveLoop {
    metric: "p_penetrated_1_plus",
    run: vehicle_fire,
};

/// `gate`'s loop.
pub const GATE: NaiveLoop = NaiveLoop {
    metric: "mean_turns",
    run: gate,
};

/// `ram`'s loop.
pub const RAM: NaiveLoop = NaiveLoop {
    metric: "mean_target_damage",
    run: ram,
};

/// `hand_to_hand`'s loop.
pub const HAND_TO_HAND: NaiveLoop = NaiveLoop {
    metric: "p_a_wins",
    run: hand_to_hand,
};

/// `multiple_combat`'s loop.
pub const MULTIPLE_COMBAT: NaiveLoop = NaiveLoop {
    metric: "p_defender_down_or_out",
    run: multiple_combat,
};

/// `boarding`'s loop.
pub const BOARDING: NaiveLoop = NaiveLoop {
    metric: "mean_unopposed_penetrating",
    run: boarding,
};

/// The Ork Trukk's armour by D6 location: Crew, Fixed Weapon, Gubbins,
/// Wheels, Driver 8; Engines 10.
const TRUKK_ARMOUR: [u32; 6] = [8, 8, 8, 8, 8, 10];

/// A warrior's condition, the obvious way.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Standing,
    FleshWound,
    Down,
    Out,
}

#[derive(Clone, Copy)]
struct Warrior {
    status: Status,
    wounds: u32,
    ws: u32,
    bs: u32,
}

impl Warrior {
    fn new(wounds: u32, ws: u32, bs: u32) -> Self {
        Warrior {
            status: Status::Standing,
            wounds,
            ws,
            bs,
        }
    }

    /// Damage: wounds lost; at none left, the Injury Table (1-2 Flesh
    /// Wound: -1 WS and BS, out if both reach 0; 3-5 Down; 6 Out).
    fn damage(&mut self, rng: &mut Rng, points: u32) {
        if points == 0 || self.status == Status::Out {
            return;
        }
        self.wounds = self.wounds.saturating_sub(points);
        if self.wounds > 0 {
            return;
        }
        match d(rng, 6) {
            1 | 2 => {
                self.ws = self.ws.saturating_sub(1);
                self.bs = self.bs.saturating_sub(1);
                if self.ws == 0 && self.bs == 0 {
                    self.status = Status::Out;
                } else if self.status < Status::FleshWound {
                    self.status = Status::FleshWound;
                    self.wounds = 1;
                }
            }
            3..=5 => self.status = self.status.max(Status::Down),
            _ => self.status = Status::Out,
        }
    }
}

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

/// BS 3 throwing 6" (Strength 3: an 8" throw), no modifiers: 4+ to hit.
/// A miss rolls a D6 for distance and the Scatter die (two "Hit" faces);
/// a 6 and Hit is Unreliable Explosives, 4-5 delayed. A natural 6 to hit
/// takes the 4+ Ammo Roll.
fn grenade(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let first = d(rng, 6);
        let hit = first != 1 && first >= 4;
        let mut delayed = false;
        if !hit {
            let distance = d(rng, 6);
            let hit_symbol = d(rng, 6) > 4;
            if distance == 6 && hit_symbol {
                delayed = (4..=5).contains(&d(rng, 6));
            }
        }
        if first == 6 {
            let _out_of_ammo = d(rng, 6) < 4;
        }
        sums.add(u64::from(delayed));
    }
    sums
}

/// A T3, 2-Wound warrior with a 6+ save on fire, no helpers: each turn a 6
/// puts it out, else a Strength 4 hit (3+ to wound, the save at 7+: none)
/// of 1 Damage; Down or Out of Action puts the fire out.
fn fire(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut w = Warrior::new(2, 3, 3);
        loop {
            if d(rng, 6) >= 6 {
                break;
            }
            if d(rng, 6) >= 3 {
                w.damage(rng, 1);
            }
            if w.status >= Status::Down {
                break;
            }
        }
        sums.add(u64::from(w.status == Status::Out));
    }
    sums
}

/// A 7" fall onto another warrior: a Strength 7 hit on T3 (2+), no save,
/// D3 Damage on a 1-Wound warrior; the one landed on takes the same on a
/// 4+.
fn fall(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut w = Warrior::new(1, 3, 3);
        let mut damage = 0;
        if d(rng, 6) >= 2 {
            damage = d(rng, 3);
            w.damage(rng, damage);
        }
        if damage > 0 {
            let _other_hurt = d(rng, 6) >= 4;
        }
        sums.add(u64::from(w.status == Status::Out));
    }
    sums
}

/// A 3" gap over a 4" drop: a D6 of 3 or more soars across; else a fall
/// of 4": a Strength 4 hit on T3 (3+), no save, 1 Damage on a 1-Wound
/// warrior.
fn jump(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut w = Warrior::new(1, 3, 3);
        if d(rng, 6) < 3 && d(rng, 6) >= 3 {
            w.damage(rng, 1);
        }
        sums.add(u64::from(w.status == Status::Out));
    }
    sums
}

/// Pinned within 2" of a 4" drop at Initiative 3: a D6 of 1-3 passes the
/// Initiative test; else a fall of 4": a Strength 4 hit on T3 (3+), no
/// save, 1 Damage on a 1-Wound warrior.
fn edge(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut w = Warrior::new(1, 3, 3);
        if d(rng, 6) > 3 && d(rng, 6) >= 3 {
            w.damage(rng, 1);
        }
        sums.add(u64::from(w.status == Status::Out));
    }
    sums
}

/// An Ork Boy (Leadership 7, Movement 4) within 8" of a Terror-causing
/// opponent: 2D6 of 7 or under holds (12 always fails); else it flees 2D6"
/// and runs when that is more than 4".
fn terror(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let test = d(rng, 6) + d(rng, 6);
        let holds = test != 12 && test <= 7;
        let runs = !holds && d(rng, 6) + d(rng, 6) > 4;
        sums.add(u64::from(runs));
    }
    sums
}

/// A Stupid Ork Boy (Leadership 7, T4, W1, no save) aboard a Trukk: 2D6 of
/// 7 or under passes (12 always fails); failed, a D6 of 4+ wanders off the
/// Vehicle: a Strength 3 hit on T4 (5+), 1 Damage.
fn stupidity(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut w = Warrior::new(1, 3, 3);
        let test = d(rng, 6) + d(rng, 6);
        let fails = test == 12 || test > 7;
        if fails && d(rng, 6) >= 4 && d(rng, 6) >= 5 {
            w.damage(rng, 1);
        }
        sums.add(u64::from(w.status == Status::Out));
    }
    sums
}

/// A Bottle Test at Leadership 7 (2D6, 7 or under passes, 12 always
/// fails); two carriers at Leadership 7 keep their counters on the same
/// test, two counters aboard a Vehicle are kept on a 2+: counters dropped
/// this turn, only when the Mob Bottles Out.
fn bottle(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    let passes = |rng: &mut Rng, ld: u32| {
        let roll = d(rng, 6) + d(rng, 6);
        roll != 12 && roll <= ld
    };
    for _ in 0..n {
        let mut dropped = 0;
        if !passes(rng, 7) {
            for _ in 0..2 {
                dropped += u64::from(!passes(rng, 7));
            }
            for _ in 0..2 {
                dropped += u64::from(d(rng, 6) < 2);
            }
        }
        sums.add(dropped);
    }
    sums
}

/// An Ork Trukk (Thrusts on 2+, 3+, 4+) after 6" on Gas Engines declares
/// three 6" Thrusts and must cover 20": a failed Test rolls on the Thruster
/// Buster Table (1 Spin; otherwise D6" forward) and ends the move.
fn thrust(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut inches = 6;
        for needed in [2, 3, 4] {
            if d(rng, 6) >= needed {
                inches += 6;
            } else {
                if d(rng, 6) != 1 {
                    inches += d(rng, 6);
                }
                break;
            }
        }
        sums.add(u64::from(inches >= 20));
    }
    sums
}

/// A bike whose driver is Down, one crew member able: the crew member
/// tries for the wheel (4+); a small vehicle's crew get one try, so a
/// failure immobilises it before the driver's Recovery roll comes round.
fn out_of_control(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        sums.add(u64::from(d(rng, 6) >= 4));
    }
    sums
}

/// A standing T3, 1-Wound, Initiative 3 warrior about to be squashed: an
/// Initiative Test (1-3 passes, a 6 always fails), else a Strength 3 hit
/// (4+ to wound, no armour) of 1 Damage.
fn vehicle_hazard(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut w = Warrior::new(1, 3, 3);
        if d(rng, 6) > 3 && d(rng, 6) >= 4 {
            w.damage(rng, 1);
        }
        sums.add(u64::from(w.status == Status::Out));
    }
    sums
}

/// A Shoota (BS 3, S3) firing two shots at an Ork Trukk 14" away: 4+ to
/// hit, the long band's none and +1 for a Large Target, so 3+; a D6 for
/// the location, D6 + 3 against its armour; no save, no crew aboard.
fn vehicle_hits(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut pens = 0;
        for _ in 0..2 {
            if d(rng, 6) < 3 {
                continue;
            }
            let at = d(rng, 6) as usize - 1;
            if d(rng, 6) + 3 >= TRUKK_ARMOUR[at] {
                pens += 1;
            }
        }
        sums.add(pens);
    }
    sums
}

/// A Trukk's wheels (armour 8) burning with two helpers: each turn a D6 + 2
/// of 6 puts the fire out, else a Strength 4 hit penetrates on D6 + 4 >= 8.
fn vehicle_fire(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut penetrated = false;
        while d(rng, 6) + 2 < 6 {
            penetrated |= d(rng, 6) + 4 >= 8;
        }
        sums.add(u64::from(penetrated));
    }
    sums
}

/// Two Strength 5 hits a turn on the fort's gate (armour 9) until a gap:
/// each that penetrates (D6 + 5 >= 9) rolls on the gate table with the
/// cumulative +1 of every 3 ("Something shifted!"): 1-2 trim, 4 a gap, 5
/// carnage, 6+ off the hinges; hits left over once it is open are not
/// rolled. Counts the turns it takes.
fn gate(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let (mut bonus, mut worst, mut turns) = (0, 0, 0);
        while worst < 4 {
            turns += 1;
            for _ in 0..2 {
                if worst >= 4 || d(rng, 6) + 5 < 9 {
                    continue;
                }
                match d(rng, 6) + bonus {
                    3 => bonus += 1,
                    score if score >= 4 => worst = worst.max(score.min(6)),
                    _ => {}
                }
            }
        }
        sums.add(turns);
    }
    sums
}

/// One Trukk T-boning another whose driver has Leadership 7: the target
/// swerves clear on a Leadership Test (2D6 <= 7, a 12 always fails); else
/// the rammer takes 1 point and the target D3, each point on a D6
/// location, penetrating automatically (no save).
fn ram(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let test = d(rng, 6) + d(rng, 6);
        let mut target_points = 0;
        if !(test != 12 && test <= 7) {
            let _rammer_location = d(rng, 6);
            target_points = d(rng, 3);
            for _ in 0..target_points {
                let _location = d(rng, 6);
            }
        }
        sums.add(u64::from(target_points));
    }
    sums
}

/// Highest die, sixes and ones of `n` Attack Dice.
fn attack_dice(rng: &mut Rng, n: u32) -> (i32, i32, i32) {
    let (mut highest, mut sixes, mut ones) = (0, 0, 0);
    for _ in 0..n {
        let f = d(rng, 6) as i32;
        highest = highest.max(f);
        sixes += i32::from(f == 6);
        ones += i32::from(f == 1);
    }
    (highest, sixes, ones)
}

/// A strike of `strength` on a warrior of `toughness`, no save above 6,
/// 1 Damage; Down is Out of Action in a one-on-one fight on foot.
fn strike(rng: &mut Rng, w: &mut Warrior, wound_on: u32, save_on: Option<u32>) {
    if w.status == Status::Out || d(rng, 6) < wound_on {
        return;
    }
    if save_on.is_some_and(|s| d(rng, 6) >= s) {
        return;
    }
    w.damage(rng, 1);
    if w.status == Status::Down {
        w.status = Status::Out;
    }
}

/// Grimgutz (WS 3, I 2, a Shoota and a Choppa: one Attack Die, no bonus
/// for the ranged weapon; T4, 1 Wound, no save) against Krixit (WS 2, I 3,
/// a Choppa and the Knife: two Attack Dice; T3, 2 Wounds, a 6+ save),
/// fought to the end, Grimgutz charging (+1 in the first round). Each round: WS + highest die + each six past the
/// first + each of the opponent's ones; a draw goes to the higher
/// Initiative (Krixit) for one strike; otherwise the difference in
/// strikes: Grimgutz's all with the Choppa (denied the bonus die, he
/// fights with it alone), Krixit's alternating Choppa (S4, save -1) and
/// Knife (S3), first the Choppa.
fn hand_to_hand(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut a = Warrior::new(1, 3, 3);
        let mut b = Warrior::new(2, 2, 2);
        let mut charge = 1;
        while a.status != Status::Out && b.status != Status::Out {
            let (ah, a6, a1) = attack_dice(rng, 1);
            let (bh, b6, b1) = attack_dice(rng, 2);
            let sa = a.ws as i32 + ah + (a6 - 1).max(0) + b1 + charge;
            charge = 0;
            let sb = b.ws as i32 + bh + (b6 - 1).max(0) + a1;
            let (a_wins, strikes) = if sa == sb {
                (false, 1)
            } else {
                (sa > sb, (sa - sb).unsigned_abs())
            };
            for k in 0..strikes {
                let choppa = k % 2 == 0;
                if a_wins {
                    // on T3: the Choppa wounds on 3+ (save 7+: none)
                    strike(rng, &mut b, 3, None);
                } else {
                    // on T4, no armour: the Choppa wounds on 4+, the Knife on 5+
                    strike(rng, &mut a, if choppa { 4 } else { 5 }, None);
                }
            }
        }
        sums.add(u64::from(b.status == Status::Out));
    }
    sums
}

/// Three attackers (WS 2, one Attack Die, the Knife: S3; T3, 1 Wound, no
/// save; Initiative 2) who charged (+1) fight a lone defender (WS 4, a
/// Choppa and the Knife: three Attack Dice, S4; T4, 2 Wounds, a 5+ save;
/// Initiative 3) one after another; the k-th attacker (from 0) gains k
/// Attack Dice and +k. A drawn round goes to the defender (higher
/// Initiative), one strike. The defender's strikes alternate Choppa (S5:
/// 2+ on T3) and Knife (S4: 3+), no armour to save; the attackers' Knife
/// wounds T4 on 5+, saved on 5+. Down stays Down here (Multiple Combats),
/// and the fight ends when the defender goes Down or Out of Action.
fn multiple_combat(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut defender = Warrior::new(2, 4, 3);
        for k in 0..3 {
            if defender.status >= Status::Down {
                break;
            }
            let mut attacker = Warrior::new(1, 2, 3);
            let (ah, a6, a1) = attack_dice(rng, 1 + k);
            let (bh, b6, b1) = attack_dice(rng, 3);
            let sa = attacker.ws as i32 + ah + (a6 - 1).max(0) + b1 + 1 + k as i32;
            let sb = defender.ws as i32 + bh + (b6 - 1).max(0) + a1;
            let (attacker_wins, strikes) = if sa == sb {
                (false, 1)
            } else {
                (sa > sb, (sa - sb).unsigned_abs())
            };
            for s in 0..strikes {
                if attacker_wins {
                    if d(rng, 6) >= 5 && d(rng, 6) < 5 {
                        defender.damage(rng, 1);
                    }
                } else {
                    let wound_on = if s % 2 == 0 { 2 } else { 3 };
                    if attacker.status != Status::Out && d(rng, 6) >= wound_on {
                        attacker.damage(rng, 1);
                    }
                }
            }
        }
        sums.add(u64::from(defender.status >= Status::Down));
    }
    sums
}

/// Combat scores of one fight: `(boarder wins, strikes)`; a draw goes to
/// the boarder (Initiative 3 against 2), one strike.
fn clash(rng: &mut Rng, boarder: (u32, i32), crew: (u32, i32)) -> (bool, u32) {
    let (bh, b6, b1) = attack_dice(rng, boarder.0);
    let (ch, c6, c1) = attack_dice(rng, crew.0);
    let sb = boarder.1 + bh + (b6 - 1).max(0) + c1;
    let sc = crew.1 + ch + (c6 - 1).max(0) + b1;
    if sb == sc {
        (true, 1)
    } else {
        (sb > sc, (sb - sc).unsigned_abs())
    }
}

/// A warrior thrown overboard (or falling short of the leap) takes a
/// Strength 3 hit: on T3 (a grot) 4+, on T4 (the crew) 5+, no armour.
fn thrown(rng: &mut Rng, w: &mut Warrior, wound_on: u32) {
    if w.status != Status::Out && d(rng, 6) >= wound_on {
        w.damage(rng, 1);
    }
}

/// Three grots (Krixit: WS 2, Initiative 3, a Choppa and the Knife, two
/// Attack Dice; T3, 1 Wound) board a Stationary Trukk crewed by two (WS 3,
/// Initiative 2, the Knife, one die; T4, 1 Wound), piling on as one group.
/// Stationary: "No rolls are required to Board", every grot is aboard; the
/// lead fights the first crew member with a die and +1 per helper; the
/// loser of a fight is thrown overboard, wounded or not (a S3 hit); a lead who won fights the next crew member (the driver) without
/// the helpers' bonus, and each crew member fights once. With no crew left, every grot aboard hits the
/// lowest-Armour location (8) once: the Choppa's S4 + D6 + the Stationary
/// bonus D6. Counts the penetrating hits.
fn boarding(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut aboard = 3;
        let mut crew = 2;
        if aboard > 0 {
            let mut lead = Warrior::new(1, 2, 3);
            let mut helpers = aboard - 1;
            for _ in 0..2 {
                let mut defender = Warrior::new(1, 3, 3);
                let boarder = (2 + helpers, lead.ws as i32 + helpers as i32);
                let (lead_wins, strikes) = clash(rng, boarder, (1, defender.ws as i32));
                helpers = 0;
                for k in 0..strikes {
                    if lead_wins {
                        // Choppa S4 on T4: 4+; Knife S3: 5+
                        let wound_on = if k % 2 == 0 { 4 } else { 5 };
                        if defender.status != Status::Out && d(rng, 6) >= wound_on {
                            defender.damage(rng, 1);
                        }
                    } else if lead.status != Status::Out && d(rng, 6) >= 4 {
                        lead.damage(rng, 1);
                    }
                }
                // Step 11: "the loser of a round of Hand-to-Hand Combat
                // will be chucked overboard! Regardless of whether they’re
                // Wounded or not"
                if lead_wins {
                    thrown(rng, &mut defender, 5);
                    crew -= 1;
                    if lead.status >= Status::Down {
                        break;
                    }
                } else {
                    thrown(rng, &mut lead, 4);
                    aboard -= 1;
                    break;
                }
            }
        }
        let mut pens = 0;
        if crew == 0 {
            for _ in 0..aboard {
                if 4 + d(rng, 6) + d(rng, 6) >= 8 {
                    pens += 1;
                }
            }
        }
        sums.add(pens);
    }
    sums
}

/// The Nob the Boyz shoot at (T4, W1, 6+ save, WS 4, BS 4) as the loops
/// below track him: wounds left, WS and BS, Down, Out of Action.
#[derive(Clone, Copy)]
struct Nob {
    wounds: u32,
    ws: u32,
    bs: u32,
    down: bool,
    out: bool,
}

impl Nob {
    fn fresh() -> Self {
        Nob {
            wounds: 1,
            ws: 4,
            bs: 4,
            down: false,
            out: false,
        }
    }

    /// An Injury roll: 1-2 a Flesh Wound (-1 WS and BS, Out of Action at
    /// both 0, else on his feet with a Wound, or still Down), 3-5 Down,
    /// 6 Out of Action.
    fn injury(&mut self, roll: u32, recovering: bool) {
        match roll {
            1 | 2 => {
                self.ws -= 1;
                self.bs -= 1;
                if self.ws == 0 && self.bs == 0 {
                    self.out = true;
                } else if recovering || !self.down {
                    self.down = false;
                    self.wounds = 1;
                }
            }
            3..=5 => self.down = true,
            _ => self.out = true,
        }
    }

    /// One unsaved wound of `damage`.
    fn damage(&mut self, rng: &mut Rng, damage: u32) {
        self.wounds = self.wounds.saturating_sub(damage);
        if self.wounds == 0 {
            let roll = d(rng, 6);
            self.injury(roll, false);
        }
    }
}

/// Five Boyz with Shootas (BS 3, 8": the short band's +1, 3+; S3 against
/// T4 wounds on 5+, the 6+ save) then a Nob's Kannon (BS 4, the long
/// band's -1, 4+; S8 wounds on 2+, save -3 leaves none, D3 Damage), a
/// natural 6 to hit taking the 4+ Ammo Roll; `ammo[i]` says shooter `i`
/// still has ammo, and is cleared by a failed roll. Nothing more once the
/// Nob is Out of Action.
fn boyz_and_nob(rng: &mut Rng, nob: &mut Nob, ammo: &mut [bool; 6]) {
    for (i, has_ammo) in ammo.iter_mut().enumerate() {
        if nob.out || !*has_ammo {
            continue;
        }
        let kannon = i == 5;
        let first = d(rng, 6);
        if first == 6 && d(rng, 6) < 4 {
            *has_ammo = false;
        }
        let needed = if kannon { 4 } else { 3 };
        if first == 1 || first < needed {
            continue;
        }
        if kannon {
            if d(rng, 6) >= 2 {
                let damage = d(rng, 3);
                nob.damage(rng, damage);
            }
        } else if d(rng, 6) >= 5 && d(rng, 6) < 6 {
            nob.damage(rng, 1);
        }
    }
}

/// The Boyz and the Nob's volley at the Nob once: P(Out of Action).
fn volley(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut nob = Nob::fresh();
        boyz_and_nob(rng, &mut nob, &mut [true; 6]);
        sums.add(u64::from(nob.out));
    }
    sums
}

/// The same volley every turn for 8 turns, the Recovery Phase between
/// ("Warriors that are Down must roll on the Injury Table"), a shooter out
/// of ammo silent for the rest of the game: P(Out of Action by then).
fn turns_to_kill(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut nob = Nob::fresh();
        let mut ammo = [true; 6];
        for _ in 0..8 {
            boyz_and_nob(rng, &mut nob, &mut ammo);
            if nob.down && !nob.out {
                let roll = d(rng, 6);
                nob.injury(roll, true);
            }
            // a Nob left Down rolls on after the last weapon runs dry
            if nob.out || (!ammo.contains(&true) && !nob.down) {
                break;
            }
        }
        sums.add(u64::from(nob.out));
    }
    sums
}
