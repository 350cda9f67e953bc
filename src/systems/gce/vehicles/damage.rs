//! A vehicle as data (its Hit Location Table, armour, saving throw, size,
//! thrust thresholds, and any faction Damage Tables a spec gives) and the
//! damage pipeline every source of vehicle damage goes through: "Roll a D6
//! for each point of Damage a Vehicle takes", penetrate, save, then the
//! location's Damage Table (Taking Damage, Steps 1-5).

use crate::dice::Roller;
use crate::systems::did_you_mean;
use crate::systems::{FromParam, Opt, ParamDecl, ParamError, ParamGroup, Params, PresetDecl};

/// Where the seed gives the Hit Location Table and the damage process.
pub const TAKING_DAMAGE: &str = "Vehicles, Taking Damage (Steps 1-5)";

/// Small vehicles (bikes) and the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Size {
    /// "Small Vehicles such as Bikes".
    Small,
    /// Every other vehicle ("larger Vehicles").
    Large,
}

/// One row of a Hit Location Table.
#[derive(Clone, Debug, PartialEq)]
pub struct Location {
    /// Its name (`crew`, `engines`), lower case with underscores.
    pub name: String,
    /// Its Armour value.
    pub armour: u8,
}

/// How a point of damage gets through a location's armour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Penetration {
    /// "roll a D6 and add the Strength of the Hit. If that score equals or
    /// exceeds the listed Armour value for the location the Hit
    /// Penetrates"; `bonus_die`: an unopposed boarder on a Stationary
    /// vehicle "receives a bonus D6 to Penetrate Armour".
    Strength {
        /// The hit's Strength.
        strength: u8,
        /// A second D6 added to the roll.
        bonus_die: bool,
    },
    /// "things like Ramming and Crashing automatically Penetrate any
    /// location they Hit!"
    Automatic,
}

/// A vehicle's profile.
#[derive(Clone, Debug, PartialEq)]
pub struct Vehicle {
    /// The six rows of its Hit Location Table, D6 1 to 6.
    pub locations: Vec<Location>,
    /// A saving throw against Damage (Extra Armour), the score needed.
    pub save: Option<u8>,
    /// Small or large.
    pub size: Size,
    /// Thrust thresholds: the score the n-th Thrust Test needs; the last
    /// repeats ("3+ | 4+").
    pub thrust: Vec<u8>,
    /// Names of the effects in its Damage Tables, in the order first given.
    pub effects: Vec<String>,
    /// Each location's Damage Table, if the spec gives one: D6 -> effect
    /// (an index into `effects`).
    pub tables: Vec<Option<[u8; 6]>>,
}

/// What one point of damage did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Struck {
    /// The location rolled (0 for the D6's 1).
    pub location: usize,
    /// It penetrated and was not saved.
    pub penetrating: bool,
    /// The Damage Table's result for a penetrating hit, where there is a table.
    pub effect: Option<u8>,
}

impl Vehicle {
    /// The score the `n`-th Thrust Test of a move needs (from 1).
    pub fn thrust_needed(&self, n: usize) -> u8 {
        self.thrust[(n.max(1) - 1).min(self.thrust.len() - 1)]
    }

    /// The location named `name`.
    pub fn location_named(&self, name: &str) -> Option<usize> {
        self.locations.iter().position(|l| l.name == name)
    }

    /// The Crew location, where template hits fall on every warrior aboard.
    pub fn crew_location(&self) -> Option<usize> {
        self.location_named("crew")
    }

    /// P(a point of damage on `location` penetrates and is not saved).
    pub fn p_penetrating(&self, location: usize, pen: Penetration) -> f64 {
        let through = match pen {
            Penetration::Automatic => 1.0,
            Penetration::Strength {
                strength,
                bonus_die,
            } => {
                let need = i32::from(self.locations[location].armour) - i32::from(strength);
                let dice = if bonus_die { 2 } else { 1 };
                p_sum_at_least(dice, need)
            }
        };
        through * (1.0 - self.p_saved())
    }

    /// P(the vehicle's saving throw passes).
    pub fn p_saved(&self) -> f64 {
        self.save
            .map_or(0.0, |s| f64::from(7 - u32::from(s).clamp(1, 7)) / 6.0)
    }

    /// Steps 2-3 for a point of damage on `location`: penetration, then the
    /// save ("If passed the Damage is disregarded").
    pub fn penetrates(&self, dice: &mut impl Roller, location: usize, pen: Penetration) -> bool {
        let through = match pen {
            Penetration::Automatic => true,
            Penetration::Strength {
                strength,
                bonus_die,
            } => {
                let bonus = if bonus_die { dice.d6() } else { 0 };
                dice.d6() + bonus + u32::from(strength)
                    >= u32::from(self.locations[location].armour)
            }
        };
        through && self.save.is_none_or(|s| dice.d6() < u32::from(s))
    }

    /// Step 5: the location's Damage Table for a penetrating hit, if it has one.
    pub fn effect(&self, dice: &mut impl Roller, location: usize) -> Option<u8> {
        self.tables[location].map(|t| t[dice.d6() as usize - 1])
    }

    /// One point of damage through Steps 1-5.
    pub fn take_point(&self, dice: &mut impl Roller, pen: Penetration) -> Struck {
        let location = dice.d6() as usize - 1;
        self.struck_at(dice, location, pen)
    }

    /// Steps 2-5 for a point of damage on a known location.
    pub fn struck_at(&self, dice: &mut impl Roller, location: usize, pen: Penetration) -> Struck {
        let penetrating = self.penetrates(dice, location, pen);
        Struck {
            location,
            penetrating,
            effect: if penetrating {
                self.effect(dice, location)
            } else {
                None
            },
        }
    }

    /// P(a penetrating hit on `location` gives effect `e`).
    pub fn p_effect_given_penetrating(&self, location: usize, e: u8) -> f64 {
        self.tables[location].map_or(0.0, |t| t.iter().filter(|&&x| x == e).count() as f64 / 6.0)
    }
}

/// P(the sum of `dice` D6 is at least `need`).
pub fn p_sum_at_least(dice: u32, need: i32) -> f64 {
    let law = crate::dice::Dist::die(6).sum_of(dice);
    law.prob(|v| v >= i64::from(need))
}

/// The seed's vehicles: only the numbers it gives.
pub const PRESETS: &[PresetDecl] = &[PresetDecl {
    catalogue: "vehicle",
    name: "ork_trukk",
    sets: &[
        (
            "locations",
            "crew 8, fixed weapon 8, gubbins 8, wheels 8, driver 8, engines 10",
        ),
        ("size", "large"),
        ("thrust", "2+, 3+, 4+"),
    ],
    source: "\"Ork Trukk with ‘Eavy Shoota and Boarding Plank | D6 | Armour | Location | 1 | 8 | Crew ... 6 | 10 | Engines\"; \"Ork Trukk | Thrust Number | Score Required (D6) | 1 | 2+ | 2 | 3+ | 3+ | 4+\"",
}];

/// The vehicle parameters of one vehicle, `prefix` `""`, `rammer_` or
/// `target_`; `thrust` adds the thrust thresholds.
fn vehicle_params(prefix: &str, who: &str, thrust: bool) -> Vec<ParamDecl> {
    let name = |s: &str| format!("{prefix}{s}");
    let preset = if prefix.is_empty() {
        "vehicle".to_string()
    } else {
        prefix.trim_end_matches('_').to_string()
    };
    let mut p = vec![
        ParamDecl::preset(preset, "vehicle", prefix)
            .about(format!("{who}: a vehicle preset from the seed (ork_trukk), or custom"))
            .seed(TAKING_DAMAGE),
        ParamDecl::text(name("locations"), "crew 8, fixed weapon 8, gubbins 8, wheels 8, driver 8, engines 10")
            .required()
            .about(format!("{who}'s Hit Location Table: six 'location armour' entries, D6 1 to 6"))
            .seed(TAKING_DAMAGE),
        ParamDecl::choice(name("size"), &["large", "small"])
            .required()
            .about(format!("{who} is a small vehicle (a bike) or not"))
            .seed("Vehicles, Ramming"),
        ParamDecl::int(name("vehicle_save"), 0, 7)
            .about(format!("{who}'s saving throw against Damage (Extra Armour), the score needed; 0 or absent for none"))
            .seed("Taking Damage, Step 3 – Saving Throw"),
        ParamDecl::text(name("effects"), "engines: none, none, stalled, stalled, immobilised, wrecked")
            .about(format!(
                "{who}'s faction Damage Tables (not in the core rules): 'location: six effects for D6 1-6', locations separated by ';'"
            ))
            .seed("Taking Damage, Step 5 - Resolve Damage"),
    ];
    if thrust {
        p.push(
            ParamDecl::text(name("thrust"), "2+, 3+, 4+")
                .required()
                .about(format!("{who}'s Thrust thresholds: the score for the 1st, 2nd ... Thrust; the last repeats"))
                .seed("Vehicles, Thrusters"),
        );
    }
    p
}

/// Which vehicle of a scenario a vehicle's parameters describe: what
/// their declarations call it, and whether its Thrust thresholds are
/// declared.
pub trait VehicleRole {
    /// The vehicle as the declarations name it ("the rammer ...").
    const WHO: &'static str;
    /// Whether the Thrust thresholds are declared.
    const THRUST: bool;
}

/// One vehicle's parameters, a group under its prefix (`""`, `rammer_`,
/// `target_`): a preset or a Hit Location Table, its size, save and
/// Damage Tables, and for a role `R` that thrusts its Thrust thresholds.
#[derive(Clone, Debug)]
pub struct VehicleParams<R> {
    prefix: String,
    locations: String,
    size: String,
    vehicle_save: Opt<i64>,
    effects: Opt<String>,
    thrust: Option<String>,
    role: std::marker::PhantomData<R>,
}

impl<R: VehicleRole> ParamGroup for VehicleParams<R> {
    fn decls_with(prefix: &str) -> Vec<ParamDecl> {
        vehicle_params(prefix, R::WHO, R::THRUST)
    }

    fn read_with(p: &Params, prefix: &str) -> Result<Self, ParamError> {
        let name = |s: &str| format!("{prefix}{s}");
        Ok(VehicleParams {
            prefix: prefix.to_string(),
            locations: FromParam::from_param(p, &name("locations"))?,
            size: FromParam::from_param(p, &name("size"))?,
            vehicle_save: FromParam::from_param(p, &name("vehicle_save"))?,
            effects: FromParam::from_param(p, &name("effects"))?,
            thrust: if R::THRUST {
                Some(FromParam::from_param(p, &name("thrust"))?)
            } else {
                None
            },
            role: std::marker::PhantomData,
        })
    }
}

impl<R> VehicleParams<R> {
    /// The vehicle these parameters describe.
    pub fn vehicle(&self) -> Result<Vehicle, ParamError> {
        let name = |s: &str| format!("{}{s}", self.prefix);
        let locations = parse_locations(&self.locations, &name("locations"))?;
        let size = match self.size.as_str() {
            "small" => Size::Small,
            _ => Size::Large,
        };
        let save = match self.vehicle_save.value {
            None | Some(0) | Some(7) => None,
            Some(1) => {
                return Err(ParamError::new(
                    self.vehicle_save.name(),
                    "a 1+ save is impossible: use 2 to 6 (the score needed), or 0 for none",
                ));
            }
            Some(s) => Some(s as u8),
        };
        let thrust = match &self.thrust {
            Some(thrust) => parse_thrust(thrust, &name("thrust"))?,
            None => vec![4],
        };
        let (effects, tables) = match &self.effects.value {
            Some(text) if !text.trim().is_empty() => {
                parse_effects(text, &locations, &name("effects"))?
            }
            _ => (Vec::new(), vec![None; 6]),
        };
        Ok(Vehicle {
            locations,
            save,
            size,
            thrust,
            effects,
            tables,
        })
    }
}

/// A name as metric ids use it: lower case, words joined by `_`.
fn slug(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
        .to_ascii_lowercase()
}

/// "crew 8, fixed weapon 8, ..." as six locations.
pub fn parse_locations(text: &str, field: &str) -> Result<Vec<Location>, ParamError> {
    let rows: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    if rows.len() != 6 {
        return Err(ParamError::new(
            field,
            format!(
                "a Hit Location Table has six rows, one per D6 result; got {}: write six 'location armour' entries separated by commas",
                rows.len()
            ),
        ));
    }
    let mut out: Vec<Location> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let (name, armour) = row.rsplit_once(char::is_whitespace).ok_or_else(|| {
            ParamError::new(
                field,
                format!(
                    "row {} '{row}' is not 'location armour' (e.g. 'engines 10')",
                    i + 1
                ),
            )
        })?;
        let armour: u8 = armour.parse().map_err(|_| {
            ParamError::new(
                field,
                format!("row {} '{row}': '{armour}' is not an Armour value", i + 1),
            )
        })?;
        if !(1..=20).contains(&armour) {
            return Err(ParamError::new(
                field,
                format!(
                    "row {} '{row}': Armour {armour} is impossible (1 to 20; a D6 plus Strength must be able to fail)",
                    i + 1
                ),
            ));
        }
        let name = slug(name);
        if name.is_empty() {
            return Err(ParamError::new(
                field,
                format!("row {} '{row}' has no location name", i + 1),
            ));
        }
        if out.iter().any(|l| l.name == name) {
            return Err(ParamError::new(
                field,
                format!(
                    "location '{name}' appears twice: name each row differently (gubbins_1, gubbins_2)"
                ),
            ));
        }
        out.push(Location { name, armour });
    }
    Ok(out)
}

/// "2+, 3+, 4+" as thrust thresholds.
pub fn parse_thrust(text: &str, field: &str) -> Result<Vec<u8>, ParamError> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let n: u8 = part
            .trim_end_matches('+')
            .trim()
            .parse()
            .ok()
            .filter(|n| (2..=6).contains(n))
            .ok_or_else(|| {
                ParamError::new(
                    field,
                    format!("'{part}' is not a Thrust Test score: write 2+ to 6+"),
                )
            })?;
        out.push(n);
    }
    if out.is_empty() {
        return Err(ParamError::new(
            field,
            "no thresholds: write the 1st, 2nd ... Thrust scores, e.g. \"2+, 3+, 4+\"",
        ));
    }
    Ok(out)
}

/// "engines: none, none, stalled, stalled, immobilised, wrecked; wheels:
/// ..." as effect names and one D6 table per location.
pub type EffectTables = (Vec<String>, Vec<Option<[u8; 6]>>);

/// Parses the faction Damage Tables a spec gives.
pub fn parse_effects(
    text: &str,
    locations: &[Location],
    field: &str,
) -> Result<EffectTables, ParamError> {
    let mut names: Vec<String> = Vec::new();
    let mut tables = vec![None; locations.len()];
    for part in text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let (loc, list) = part.split_once(':').ok_or_else(|| {
            ParamError::new(
                field,
                format!("'{part}' is not 'location: six effects' (e.g. 'engines: none, none, stalled, stalled, immobilised, wrecked')"),
            )
        })?;
        let loc = slug(loc);
        let at = locations
            .iter()
            .position(|l| l.name == loc)
            .ok_or_else(|| {
                ParamError::new(
                    field,
                    format!(
                        "no location '{loc}' in the Hit Location Table (locations: {}){}",
                        locations
                            .iter()
                            .map(|l| l.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                        did_you_mean(&loc, locations.iter().map(|l| l.name.as_str()))
                    ),
                )
            })?;
        if tables[at].is_some() {
            return Err(ParamError::new(
                field,
                format!("location '{loc}' has two Damage Tables"),
            ));
        }
        let effects: Vec<String> = list.split(',').map(slug).collect();
        if effects.len() != 6 || effects.iter().any(String::is_empty) {
            return Err(ParamError::new(
                field,
                format!(
                    "'{loc}' lists {} effects: a Damage Table has six, one per D6 result",
                    effects.len()
                ),
            ));
        }
        let mut row = [0u8; 6];
        for (i, e) in effects.into_iter().enumerate() {
            if !names.contains(&e) && names.len() == super::hits::MOST_EFFECTS {
                return Err(ParamError::new(
                    field,
                    format!(
                        "more than {} different Damage Table results",
                        super::hits::MOST_EFFECTS
                    ),
                ));
            }
            let k = match names.iter().position(|n| *n == e) {
                Some(k) => k,
                None => {
                    names.push(e);
                    names.len() - 1
                }
            };
            row[i] = k as u8;
        }
        tables[at] = Some(row);
    }
    Ok((names, tables))
}

/// The `ork_trukk` preset as a vehicle of `size`, its fourth location
/// named `fourth` (Trukks have Wheels, Traks Traks), for tests.
#[cfg(test)]
pub fn test_trukk(size: Size, fourth: &str) -> Vehicle {
    let rows = PRESETS[0].sets[0].1.replace("wheels", fourth);
    Vehicle {
        locations: parse_locations(&rows, "locations").expect("the preset reads"),
        save: None,
        size,
        thrust: parse_thrust(PRESETS[0].sets[2].1, "thrust").expect("the preset reads"),
        effects: Vec::new(),
        tables: vec![None; 6],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trukk() -> Vehicle {
        test_trukk(Size::Large, "wheels")
    }

    #[test]
    fn the_trukk_preset_reads_as_six_locations_and_three_thresholds() {
        let t = trukk();
        let names: Vec<&str> = t.locations.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "crew",
                "fixed_weapon",
                "gubbins",
                "wheels",
                "driver",
                "engines"
            ]
        );
        let armour: Vec<u8> = t.locations.iter().map(|l| l.armour).collect();
        assert_eq!(armour, [8, 8, 8, 8, 8, 10]);
        // "every Thrust after the second is successful on a 4+"
        assert_eq!(
            (1..=6).map(|n| t.thrust_needed(n)).collect::<Vec<_>>(),
            [2, 3, 4, 4, 4, 4]
        );
    }

    #[test]
    fn penetration_is_d6_plus_strength_against_armour_then_the_save() {
        let mut t = trukk();
        let s4 = Penetration::Strength {
            strength: 4,
            bonus_die: false,
        };
        // Wheels 8: a D6 + 4 >= 8 needs a 4+
        assert!((t.p_penetrating(3, s4) - 0.5).abs() < 1e-15);
        // Engines 10: 6+
        assert!((t.p_penetrating(5, s4) - 1.0 / 6.0).abs() < 1e-15);
        // the stationary bonus D6: 2D6 + 4 >= 10 is 2D6 >= 6, 26/36
        let bonus = Penetration::Strength {
            strength: 4,
            bonus_die: true,
        };
        assert!((t.p_penetrating(5, bonus) - 26.0 / 36.0).abs() < 1e-15);
        assert_eq!(t.p_penetrating(5, Penetration::Automatic), 1.0);
        t.save = Some(5);
        assert!((t.p_penetrating(5, Penetration::Automatic) - 4.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn bad_tables_are_named() {
        let e = parse_locations("crew 8, engines 10", "locations").unwrap_err();
        assert!(e.message.contains("six rows"), "{e}");
        let e = parse_locations("crew 0, a 8, b 8, c 8, d 8, e 8", "locations").unwrap_err();
        assert!(e.message.contains("Armour 0 is impossible"), "{e}");
        let e = parse_locations("crew 8, crew 8, b 8, c 8, d 8, e 8", "locations").unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        let t = trukk();
        let e = parse_effects("engine: a, b, c, d, e, f", &t.locations, "effects").unwrap_err();
        assert!(e.message.contains("did you mean 'engines'"), "{e}");
        let e = parse_effects("engines: a, b", &t.locations, "effects").unwrap_err();
        assert!(e.message.contains("six"), "{e}");
        let (names, tables) = parse_effects(
            "engines: none, none, stalled, stalled, immobilised, wrecked",
            &t.locations,
            "effects",
        )
        .unwrap();
        assert_eq!(names, ["none", "stalled", "immobilised", "wrecked"]);
        assert_eq!(tables[5], Some([0, 0, 1, 1, 2, 3]));
        assert_eq!(tables[0], None);
        assert!(parse_thrust("1+, 3+", "thrust").is_err());
    }
}
