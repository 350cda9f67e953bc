//! Naive per-die loops of the bfg scenarios (see `crate::systems::naive`).

use crate::systems::naive::{NaiveLoop, Rng, Sums, d, nd};

/// `ram`'s loop.
pub const RAM: NaiveLoop = NaiveLoop {
    metric: "p_target_crippled",
    run: ram,
};

/// `boarding`'s loop.
pub const BOARDING: NaiveLoop = NaiveLoop {
    metric: "mean_damage_to_defender",
    run: boarding,
};

/// `hit_and_run`'s loop.
pub const HIT_AND_RUN: NaiveLoop = NaiveLoop {
    metric: "mean_extra_damage",
    run: hit_and_run,
};

/// `disengage`'s loop.
pub const DISENGAGE: NaiveLoop = NaiveLoop {
    metric: "p_disengage",
    run: disengage,
};

/// `asteroid_field`'s loop.
pub const ASTEROID_FIELD: NaiveLoop = NaiveLoop {
    metric: "mean_damage",
    run: asteroid_field,
};

/// `warp_rift`'s loop.
pub const WARP_RIFT: NaiveLoop = NaiveLoop {
    metric: "p_lost_forever",
    run: warp_rift,
};

/// `solar_flare`'s loop.
pub const SOLAR_FLARE: NaiveLoop = NaiveLoop {
    metric: "mean_criticals",
    run: solar_flare,
};

/// `radiation_burst`'s loop.
pub const RADIATION_BURST: NaiveLoop = NaiveLoop {
    metric: "p_pass",
    run: radiation_burst,
};

/// `gas_cloud`'s loop.
pub const GAS_CLOUD: NaiveLoop = NaiveLoop {
    metric: "mean_under_cloud",
    run: gas_cloud,
};

/// `low_orbit`'s loop.
pub const LOW_ORBIT: NaiveLoop = NaiveLoop {
    metric: "mean_fired",
    run: low_orbit,
};

/// `battlezone`'s loop.
pub const BATTLEZONE: NaiveLoop = NaiveLoop {
    metric: "mean_gas_clouds",
    run: battlezone,
};

/// The Agrippa (cruiser, starting damage 8, front armour 6, Leadership 8)
/// rams the Unclean (cruiser, 8 damage, armour 5) side on: 2D6 against
/// Leadership (cruiser against cruiser), then a D6 per point of the
/// rammer's starting damage against armour 5, and the target's return D6
/// (half its starting damage) against the rammer's front armour 6. The
/// target is crippled once it has lost 4 of its 8.
fn ram(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut dealt = 0;
        if nd(rng, 2, 6) <= 8 {
            for _ in 0..8 {
                if d(rng, 6) >= 5 {
                    dealt += 1;
                }
            }
            let mut _taken = 0;
            for _ in 0..8 / 2 {
                if d(rng, 6) >= 6 {
                    _taken += 1;
                }
            }
        }
        sums.add(u64::from(2 * dealt >= 8));
    }
    sums
}

/// The extra damage of a critical hit rolled on the Critical Hits table
/// (lances damaged 2-3, main armament 4, ordnance 5, reactors 6 +1, fire
/// 7, orbit lost 8-9 +1, shields 10, hull breach 11 +D3, bulkhead 12+
/// +D6). A ship without lances takes the next highest instead of lances
/// damaged: main armament damaged, no extra damage either.
fn critical_extra_damage(rng: &mut Rng, score: u32) -> u32 {
    match score {
        ..=3 => 0,
        4 => 0,
        5 => 0,
        6 => 1,
        7 => 0,
        8 | 9 => 1,
        10 => 0,
        11 => d(rng, 3),
        _ => d(rng, 6),
    }
}

/// Three hit-and-run attacks on a ship without lances: a D6 each, 1 does
/// nothing, otherwise the score is a critical hit with its extra damage.
fn hit_and_run(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut extra = 0;
        for _ in 0..3 {
            let score = d(rng, 6);
            if score >= 2 {
                extra += critical_extra_damage(rng, score);
            }
        }
        sums.add(u64::from(extra));
    }
    sums
}

/// The boarding value modifier: "Own boarding value higher +1, double +2,
/// triple +3, four times or more +4".
fn boarding_value_modifier(own: u32, enemy: u32) -> i32 {
    if own <= enemy {
        0
    } else if enemy == 0 || own >= 4 * enemy {
        4
    } else if own >= 3 * enemy {
        3
    } else if own >= 2 * enemy {
        2
    } else {
        1
    }
}

/// Whether a ship has lost half or more of its starting damage.
fn crippled(starting: u32, left: u32) -> bool {
    2 * (starting - left) >= starting
}

/// Whether a critical hit check with the given score succeeds: `None` no
/// check, `Some(1)` automatic, otherwise a D6 scoring it or more.
fn critical_check(rng: &mut Rng, score: Option<u32>) -> bool {
    match score {
        None => false,
        Some(1) => true,
        Some(s) => d(rng, 6) >= s,
    }
}

/// The Plagueclaw (6 damage left) boards the Hyperion (3 left, 1 turret),
/// fought to the end: both roll D6 + modifiers (boarding values, enemy
/// crippled +2); the loser suffers the difference in damage; criticals by
/// the difference (1: 5+/5+, 2: 4+/5+, 3: 3+/6+, 4: 2+/6+, 5+: auto/none,
/// loser/winner) roll 2D6 on the Critical Hits table for their extra
/// damage; a draw grapples the ships and they fight on every end phase
/// until one is at 0.
fn boarding(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let (att_start, def_start, turrets) = (6u32, 3u32, 1u32);
        let (mut att, mut def) = (att_start, def_start);
        let mut grappled = false;
        loop {
            let att_value = att;
            let def_value = def + turrets;
            let att_mod = if crippled(def_start, def) { 2 } else { 0 }
                + boarding_value_modifier(att_value, def_value);
            let def_mod = if crippled(att_start, att) { 2 } else { 0 }
                + boarding_value_modifier(def_value, att_value);
            let a = d(rng, 6) as i32 + att_mod;
            let b = d(rng, 6) as i32 + def_mod;
            if a == b {
                grappled = true;
                continue;
            }
            let difference = (a - b).unsigned_abs();
            if a > b {
                def = def.saturating_sub(difference);
            } else {
                att = att.saturating_sub(difference);
            }
            let (loser_score, winner_score) = match difference {
                1 => (Some(5), Some(5)),
                2 => (Some(4), Some(5)),
                3 => (Some(3), Some(6)),
                4 => (Some(2), Some(6)),
                _ => (Some(1), None),
            };
            let (att_score, def_score) = if a > b {
                (winner_score, loser_score)
            } else {
                (loser_score, winner_score)
            };
            let att_critical = att > 0 && critical_check(rng, att_score);
            let def_critical = def > 0 && critical_check(rng, def_score);
            if att_critical {
                let score = d(rng, 6) + d(rng, 6);
                att = att.saturating_sub(critical_extra_damage(rng, score));
            }
            if def_critical {
                let score = d(rng, 6) + d(rng, 6);
                def = def.saturating_sub(critical_extra_damage(rng, score));
            }
            if def == 0 || att == 0 || !grappled {
                break;
            }
        }
        sums.add(u64::from(def_start - def));
    }
    sums
}

/// Leadership 7, two Blast markers within 5cm (+2), one enemy ship (-1):
/// 2D6 against 8.
fn disengage(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let leadership = 7 + 2 - 1;
        sums.add(u64::from(d(rng, 6) + d(rng, 6) <= leadership));
    }
    sums
}

/// Leadership 8, one shield: fail 2D6 against 8 and suffer D6 damage, one
/// blocked by the shield.
fn asteroid_field(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let damage = if d(rng, 6) + d(rng, 6) <= 8 {
            0
        } else {
            d(rng, 6).saturating_sub(1)
        };
        sums.add(u64::from(damage));
    }
    sums
}

/// Leadership 9: fail 3D6 against it and the ship is lost in the warp; a
/// D6 after the game, 1 and it is lost forever.
fn warp_rift(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let lost = d(rng, 6) + d(rng, 6) + d(rng, 6) > 9;
        sums.add(u64::from(lost && d(rng, 6) == 1));
    }
    sums
}

/// One flare, four turns, a ship without shields: a D6 at the start of each
/// turn until the first 6; then one hit, and critical damage on a 4+.
fn solar_flare(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut criticals = 0;
        for _ in 0..4 {
            if d(rng, 6) == 6 {
                if d(rng, 6) >= 4 {
                    criticals += 1;
                }
                break;
            }
        }
        sums.add(criticals);
    }
    sums
}

/// Two radiation bursts, Leadership 8: a D6 per burst, each 5 or 6 rolls a
/// D6 of interference taken off Leadership for the turn; then a Leadership
/// test on 2D6.
fn radiation_burst(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut leadership = 8;
        for _ in 0..2 {
            if d(rng, 6) >= 5 {
                leadership -= d(rng, 6) as i32;
            }
        }
        sums.add(u64::from((nd(rng, 2, 6) as i32) <= leadership));
    }
    sums
}

/// Three Eldar escorts at Leadership 8 in contact with a gas cloud: each
/// rolls 2D6 against 8, and a failed roll once more; a ship that fails
/// both is under the cloud.
fn gas_cloud(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut under = 0;
        for _ in 0..3 {
            if nd(rng, 2, 6) > 8 && nd(rng, 2, 6) > 8 {
                under += 1;
            }
        }
        sums.add(under);
    }
    sums
}

/// Three lances fired in low orbit: each needs a D6 of 4 or more to fire.
fn low_orbit(rng: &mut Rng, n: u64) -> Sums {
    let mut sums = Sums::default();
    for _ in 0..n {
        let mut fired = 0;
        for _ in 0..3 {
            if d(rng, 6) >= 4 {
                fired += 1;
            }
        }
        sums.add(fired);
    }
    sums
}

/// Method 2 on six areas, the generator rolled: a D6 per area, 4+ rolls on
/// the generator; the gas/dust clouds each row places (0 none, 1 one, 3
/// D3), a planet row (9) rolled again once a planet is on the table.
fn battlezone(rng: &mut Rng, n: u64) -> Sums {
    // rows 1-6 of generators 1-6: gas clouds placed; 9 a planet
    const GAS: [[u32; 6]; 6] = [
        [0, 0, 0, 0, 3, 9],
        [0, 0, 0, 3, 3, 9],
        [0, 0, 0, 3, 3, 9],
        [0, 0, 1, 3, 9, 9],
        [0, 0, 3, 1, 9, 9],
        [0, 0, 3, 1, 0, 9],
    ];
    let mut sums = Sums::default();
    for _ in 0..n {
        let g = d(rng, 6) as usize - 1;
        let mut planet = false;
        let mut gas = 0;
        for _ in 0..6 {
            if d(rng, 6) < 4 {
                continue;
            }
            loop {
                let row = GAS[g][d(rng, 6) as usize - 1];
                if row == 9 {
                    if planet {
                        continue;
                    }
                    planet = true;
                } else if row == 3 {
                    gas += d(rng, 3);
                } else {
                    gas += row;
                }
                break;
            }
        }
        sums.add(u64::from(gas));
    }
    sums
}
