//! A volley at a vehicle: where each hit lands, penetration, the crew under a template. Its scenario, parameters and builder.

use super::super::damage::{Penetration, Size, VehicleParams, VehicleRole};
use super::super::hits::{Cover, Crew, Volley};
use super::common::*;
use crate::param_name;
use crate::systems::gce::tables::hit_needed;
use crate::systems::gce::target::{HitModifiers, overwatch_bonus};
use crate::systems::gce::warrior::{Damage, Hit};
use crate::systems::gce::weapon::SaveModifier;
use crate::systems::{Given, Model, Opt, ParamDecl, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `vehicle_hits` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const VEHICLE_HITS_SCENARIO: Scenario = Scenario {
    name: "vehicle_hits",
    about: "a volley at a vehicle: one location roll per point of Damage, penetration, the save, Damage Tables, templates on the crew, Catching Fire",
    seed_section: "Vehicles, Taking Damage (Steps 1-5); Template Weapons; Templates and the Crew Location; Vehicles Catching Fire",
    params: HitsParams::decls,
    metrics: || super::super::hits::VEHICLE_HIT_METRICS.to_vec(),
    build: build_hits,
    variants: &["overwatch"],
    test_points: &[
        &[
            ("vehicle", "ork_trukk"),
            ("weapon", "shoota"),
            ("bs", "3"),
            ("range", "14"),
            ("shots", "2"),
        ],
        &[
            ("vehicle", "ork_trukk"),
            ("weapon", "eavy_shoota"),
            ("strength", "4"),
            ("bs", "3"),
            ("fire_mode", "full_auto"),
            ("catch_fire", "5"),
        ],
        &[
            ("vehicle", "ork_trukk"),
            ("strength", "3"),
            ("template", "blast"),
            ("coverage", "full"),
            ("catch_fire", "4"),
            ("crew", "3"),
            ("crew_toughness", "4"),
            ("crew_wounds", "1"),
            ("crew_ws", "3"),
            ("crew_bs", "3"),
            ("vehicle_save", "6"),
            (
                "effects",
                "engines: none, none, stalled, stalled, immobilised, wrecked",
            ),
        ],
    ],
    refusals: &[
        Refusal {
            what: "a vehicle misspelt",
            point: 0,
            set: &[("vehicle", "ork_truk")],
            unset: &[],
            field: "vehicle",
            words: &["did you mean 'ork_trukk'"],
        },
        Refusal {
            what: "a vehicle as a Small Target",
            point: 0,
            set: &[("small_target", "true")],
            unset: &[],
            field: "small_target",
            words: &["never a Small Target"],
        },
        Refusal {
            what: "a shot beyond the weapon's long range",
            point: 0,
            set: &[("range", "19")],
            unset: &[],
            field: "range",
            words: &["beyond the weapon's long range 18"],
        },
        Refusal {
            what: "a location table of two rows",
            point: 2,
            set: &[("locations", "crew 8, engines 10"), ("size", "large")],
            unset: &["vehicle"],
            field: "locations",
            words: &["six rows"],
        },
        Refusal {
            what: "armour 0",
            point: 2,
            set: &[
                ("locations", "crew 0, a 8, b 8, c 8, d 8, e 8"),
                ("size", "large"),
            ],
            unset: &["vehicle"],
            field: "locations",
            words: &["Armour 0 is impossible"],
        },
        Refusal {
            what: "negative crew",
            point: 2,
            set: &[("crew", "-1")],
            unset: &[],
            field: "crew",
            words: &["-1 is impossible"],
        },
        Refusal {
            what: "a Damage Table for a location it lacks",
            point: 2,
            set: &[("effects", "engine: a, b, c, d, e, f")],
            unset: &[],
            field: "effects",
            words: &["did you mean 'engines'"],
        },
        Refusal {
            what: "a Damage Table of five results",
            point: 2,
            set: &[("effects", "engines: a, b, c, d, e")],
            unset: &[],
            field: "effects",
            words: &["six"],
        },
        Refusal {
            what: "a template rolling to hit",
            point: 2,
            set: &[("bs", "3")],
            unset: &[],
            field: "bs",
            words: &["does not roll to hit"],
        },
        Refusal {
            what: "crew hit by a shot that is not a template",
            point: 0,
            set: &[
                ("crew", "2"),
                ("crew_toughness", "4"),
                ("crew_wounds", "1"),
                ("crew_ws", "3"),
                ("crew_bs", "3"),
            ],
            unset: &[],
            field: "crew",
            words: &["template"],
        },
        Refusal {
            what: "a Bike flagged a Large Target",
            point: 0,
            set: &[("size", "small"), ("large_target", "true")],
            unset: &[],
            field: "large_target",
            words: &["excludes small Vehicles like Bikes"],
        },
        Refusal {
            what: "a Trukk's Large Target counted twice",
            point: 0,
            set: &[("large_target", "true")],
            unset: &[],
            field: "large_target",
            words: &["counted already"],
        },
        Refusal {
            what: "a Fast Moving Warrior",
            point: 0,
            set: &[("fast_moving_warrior", "true")],
            unset: &[],
            field: "fast_moving_warrior",
            words: &["target_moved_fast"],
        },
        Refusal {
            what: "a Shoota's shot with no range",
            point: 0,
            set: &[],
            unset: &["range"],
            field: "range",
            words: &["the inches to the vehicle (the weapon has range bands)"],
        },
    ],
    naive: crate::systems::gce::naive::VEHICLE_HITS,
};

/// The vehicle a volley hits.
#[derive(Clone, Debug)]
pub struct VolleyTarget;
impl VehicleRole for VolleyTarget {
    const WHO: &'static str = "the vehicle";
    const THRUST: bool = false;
}

/// The warriors aboard a vehicle a volley hits.
#[derive(Clone, Debug)]
pub struct VolleyCrew;
impl CrewRole for VolleyCrew {
    const ABOUT: &'static str = "warriors aboard (Gunner, crew, boarders) each hit once when a template hits the Crew location";
    // "only a template hit on the Crew location hits the warriors aboard",
    // and a template does not roll to hit
    fn hit_by(d: ParamDecl) -> ParamDecl {
        d.needs("template", "blast")
            .needs_unset("bs")
            .needs_unset("shots")
            .needs_unset("range")
    }
}

/// The Hit Modifiers with a vehicle as the target: those a vehicle cannot
/// be are said to be refused where they are listed.
#[derive(Clone, Debug)]
pub struct VehicleHitModifiers(HitModifiers);

impl ParamGroup for VehicleHitModifiers {
    fn decls_with(prefix: &str) -> Vec<ParamDecl> {
        HitModifiers::decls_with(prefix)
            .into_iter()
            .map(|d| {
                let about = match d.name.strip_prefix(prefix).unwrap_or(&d.name) {
                    "large_target" => {
                        "refused: a large vehicle is a Large Target by its size (+1 counted), a small one (a Bike) never"
                    }
                    "small_target" => {
                        "refused: a vehicle is never a Small Target (less than ½\" tall and wide)"
                    }
                    "fast_moving_warrior" => {
                        "refused: a vehicle is not a Warrior on foot (its speed is target_moved_fast)"
                    }
                    _ => return d,
                };
                d.about(about)
            })
            .collect()
    }

    fn read_with(p: &Params, prefix: &str) -> Result<Self, ParamError> {
        Ok(VehicleHitModifiers(HitModifiers::read_with(p, prefix)?))
    }
}

crate::param_struct! {
    /// Parameters of the vehicle-hits scenario.
    pub struct HitsParams {
        ..vehicle: VehicleParams<VolleyTarget>,
        weapon: Opt<String> = preset("weapon", "")
            .about("a weapon preset whose numbers the seed gives, or custom")
            .seed("Weapon Statlines"),
        strength: Opt<i64> = int(1, 10)
            .about("the hit's Strength (not needed when it penetrates automatically)")
            .seed("Taking Damage, Step 2 - Penetrate Armour"),
        save_mod: Opt<String> = text("-1")
            .about("the weapon's save modifier for hits on warriors aboard (a number, or \"varies\"; absent: by Strength)")
            .seed("Shooting, Step 4 – Saving Throws"),
        damage: String = text("D3")
            .default("1")
            .about("Damage per hit: each point rolls its own location")
            .seed("Taking Damage, Step 1 - Determine Location"),
        shots: Given<i64> = int(1, 10)
            .default("1")
            .about("shots fired (a template weapon: one; on full auto the Sustained Fire dice say)")
            .seed("Shooting"),
        sf_dice: Opt<i64> = int(0, 6)
            .about("the weapon's Sustained Fire dice (a preset's, or a custom weapon's)")
            .seed("Firing on Full Auto"),
        fire_mode: String = choice(&["single", "full_auto"])
            .default("single")
            .about("single shots, or Full Auto: the shots are rolled on the Sustained Fire dice (a jam: no shot from that die)")
            .seed("Firing on Full Auto"),
        sf_fired: Opt<i64> = int(1, 6)
            .about("Sustained Fire dice fired on Full Auto (default: every one the weapon has)")
            .seed("Firing on Full Auto")
            .needs("fire_mode", "full_auto")
            .needs_any("sf_dice", "2")
            .needs_unset("shots"),
        bs: Opt<i64> = int(0, 10)
            .about("the firer's BS: each shot rolls to hit (a large vehicle is a Large Target, +1); absent, every shot hits")
            .seed("Shooting, Step 2 – Roll to Hit"),
        range: Opt<f64> = real(0.0, 1000.0)
            .about("inches to the vehicle, for the weapon's range band (needed with bs when the weapon has bands)")
            .seed("Range Modifiers"),
        short_range: Opt<f64> = real(0.0, 1000.0)
            .about("upper end of the weapon's short range band, inches (0 = no short band)")
            .seed("Weapon Statlines"),
        long_range: Opt<f64> = real(0.0, 1000.0)
            .about("upper end of the weapon's long range band (its maximum range), inches")
            .seed("Weapon Statlines"),
        short_hit: Opt<i64> = int(-6, 6)
            .about("hit modifier in the short band (custom weapons: none when not given)")
            .seed("Weapon Statlines"),
        long_hit: Opt<i64> = int(-6, 6)
            .about("hit modifier in the long band (custom weapons: none when not given)")
            .seed("Weapon Statlines"),
        template: String = choice(&["none", "blast", "teardrop"])
            .default("none")
            .about("the weapon's template")
            .seed(TEMPLATES),
        coverage: Given<String> = choice(&["full", "partial"])
            .default("full")
            .about("a template's Full Hit (D3 hits) or Partial Hit (one hit on 4+)")
            .seed(TEMPLATES)
            .needs("template", "blast")
            .needs_unset("bs")
            .needs_unset("shots")
            .needs_unset("range"),
        catch_fire: i64 = int(0, 6)
            .default("0")
            .about("Catching Fire: a hit location catches fire on this score or more (0: never)")
            .seed(FIRE),
        auto_penetrate: bool = flag()
            .about("every point penetrates automatically (rams, crashes, some Gubbins)")
            .seed("Taking Damage, Step 2 - Penetrate Armour"),
        ..hit: VehicleHitModifiers,
        ..crew: CrewParams<VolleyCrew>,
    }
}

/// Builds the vehicle-hits model.
pub fn build_hits(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = HitsParams::read(p)?;
    let vehicle = p.vehicle.vehicle()?;
    let auto = p.auto_penetrate;
    let strength = match (auto, p.strength.value) {
        (true, Some(_)) => {
            return Err(ParamError::new(
                p.strength.name(),
                "set, but auto_penetrate is true: automatic penetration ignores Strength",
            ));
        }
        (true, None) => 4,
        (false, s) => match s {
            Some(s) => s as u8,
            None => p.strength.need()? as u8,
        },
    };
    let damage = Damage::parse(&p.damage)
        .map_err(|e| ParamError::new(param_name!(HitsParams.damage), e.to_string()))?;
    // "Varies" (or no field) leaves the modifier to the Strength.
    let save_modifier = match p.save_mod.value.as_deref().map(SaveModifier::parse) {
        Some(Ok(SaveModifier::Fixed(m))) => Some(m),
        Some(Err(e)) => return Err(e),
        Some(Ok(SaveModifier::Varies)) | None => None,
    };
    let mut hit = Hit::by_strength(strength, damage);
    if let Some(m) = save_modifier {
        hit.save_modifier = Some(m);
    }
    let cover = match (p.template.as_str(), p.coverage.value.as_str()) {
        ("none", _) => Cover::Shot,
        (_, "partial") => Cover::Partial,
        _ => Cover::Full,
    };
    let shots = p.shots.value as u32;
    // "A full auto weapon has one or more Sustained Fire Dice on its
    // profile"; "you may choose to fire a single shot as normal or up to as
    // many Sustained Fire dice as is allowed by the weapon"
    let sf_dice = p.sf_dice.value.unwrap_or(0) as u32;
    let sustained_fire_dice = match p.fire_mode.as_str() {
        "full_auto" => {
            if sf_dice == 0 {
                return Err(ParamError::new(
                    param_name!(HitsParams.fire_mode),
                    "the weapon has no Sustained Fire dice (set sf_dice or a weapon preset with them), so it cannot fire on full auto",
                ));
            }
            if cover != Cover::Shot {
                return Err(ParamError::new(
                    param_name!(HitsParams.fire_mode),
                    "a template weapon fires once, not on full auto",
                ));
            }
            if p.shots.given {
                return Err(ParamError::new(
                    param_name!(HitsParams.shots),
                    "on full auto the Sustained Fire dice give the shots: leave shots out",
                ));
            }
            let fired = p.sf_fired.value.unwrap_or(i64::from(sf_dice)) as u32;
            if fired > sf_dice {
                return Err(ParamError::new(
                    p.sf_fired.name(),
                    format!("{fired} Sustained Fire dice, but the weapon has {sf_dice}"),
                ));
            }
            fired
        }
        _ => {
            if p.sf_fired.value.is_some() {
                return Err(ParamError::new(
                    p.sf_fired.name(),
                    "Sustained Fire dice are fired on full auto: set fire_mode = \"full_auto\"",
                ));
            }
            0
        }
    };
    if cover != Cover::Shot {
        if p.bs.value.is_some() {
            return Err(ParamError::new(
                p.bs.name(),
                "a template does not roll to hit here: coverage (full or partial) says how it lies over the vehicle",
            ));
        }
        if shots != 1 {
            return Err(ParamError::new(
                param_name!(HitsParams.shots),
                "a template weapon fires once",
            ));
        }
    } else if p.coverage.given {
        return Err(ParamError::new(
            param_name!(HitsParams.coverage),
            "coverage is for template weapons: set template = \"blast\" or \"teardrop\"",
        ));
    }
    let to_hit = match p.bs.value {
        Some(bs) => Some(hit_needed(
            bs as i32,
            p.hit.0.total(overwatch_bonus(variants)?)
                + vehicle_target(&p.hit.0, vehicle.size)?
                + range_band(&p)?,
        )),
        None => {
            if p.range.value.is_some() {
                return Err(ParamError::new(
                    p.range.name(),
                    "range is for the to-hit roll: set bs (absent, every shot hits)",
                ));
            }
            None
        }
    };
    let crew = p.crew.crew()?.map(|(count, stats)| Crew { count, stats });
    if crew.is_some() && cover == Cover::Shot {
        return Err(ParamError::new(
            "crew",
            "crew is for template weapons: only a template hit on the Crew location hits the warriors aboard",
        ));
    }
    if crew.is_some() && vehicle.crew_location().is_none() {
        return Err(ParamError::new(
            "crew",
            "the Hit Location Table has no 'crew' location for template hits to fall on",
        ));
    }
    let catch_fire = match p.catch_fire {
        0 => None,
        n => Some(n as u32),
    };
    let most_shots = if sustained_fire_dice > 0 {
        3 * sustained_fire_dice
    } else {
        shots
    };
    let damage_max = damage.max() * most_shots * if cover == Cover::Full { 3 } else { 1 };
    if damage_max > 60 {
        return Err(ParamError::new(
            param_name!(HitsParams.damage),
            format!(
                "a volley of up to {damage_max} points: at most 60 (each point rolls a location)"
            ),
        ));
    }
    Ok(Box::new(
        Volley {
            vehicle,
            shots,
            sustained_fire_dice,
            to_hit,
            cover,
            penetration: if auto {
                Penetration::Automatic
            } else {
                Penetration::Strength {
                    strength,
                    bonus_die: false,
                }
            },
            hit,
            catch_fire,
            crew,
        }
        .into_model(),
    ))
}

/// The Hit Modifiers of a vehicle as the target. Small and Large Targets:
/// "Vehicles and buildings which are usually Large Targets (+1 to Hit)";
/// "Large Target | The Target is a larger Vehicle (excludes small Vehicles
/// like Bikes)". A large vehicle takes the +1 by its size; `large_target`
/// is refused on any vehicle (counted already, or a Bike). The two
/// modifiers no vehicle can be are refused too: "Small Target | The whole
/// Target is less than ½” tall and wide" and "Fast Moving Warrior |
/// Warriors on foot (including mounts) that moved more than 10”" (a
/// vehicle's speed is "Target used Thrusters or moved more than 6”",
/// `target_moved_fast`).
fn vehicle_target(m: &HitModifiers, size: Size) -> Result<i32, ParamError> {
    if m.small_target {
        return Err(ParamError::new(
            param_name!(HitModifiers.small_target),
            "a vehicle is never a Small Target (\"The whole Target is less than ½” tall and wide\")",
        ));
    }
    if m.fast_moving_warrior {
        return Err(ParamError::new(
            param_name!(HitModifiers.fast_moving_warrior),
            "a vehicle is not a Fast Moving Warrior (\"Warriors on foot\"): a vehicle that moved more than 6\" is target_moved_fast",
        ));
    }
    if m.large_target {
        return Err(ParamError::new(
            param_name!(HitModifiers.large_target),
            match size {
                Size::Large => {
                    "a large vehicle is a Large Target by its size (+1 counted already): leave large_target out"
                }
                Size::Small => {
                    "a small vehicle is not a Large Target (\"excludes small Vehicles like Bikes\")"
                }
            },
        ));
    }
    Ok(i32::from(size == Size::Large))
}

/// The weapon's range band at `range` (Range Modifiers; Weapon Statlines):
/// the short band's modifier within `short_range`, the long band's within
/// `long_range`; out of range is refused (no shot could hit). A weapon
/// with no bands (no `long_range`) and no `range` takes no modifier; a
/// weapon with bands needs `range`.
fn range_band(p: &HitsParams) -> Result<i32, ParamError> {
    let long = p.long_range.value;
    let Some(range) = p.range.value else {
        if long.is_some() {
            return Err(ParamError::missing(
                p.range.name(),
                "range, the inches to the vehicle (the weapon has range bands)",
            ));
        }
        return Ok(0);
    };
    if p.template != "none" {
        return Err(ParamError::new(
            p.range.name(),
            "a template does not roll to hit here: coverage says how it lies over the vehicle",
        ));
    }
    let Some(long) = long else {
        return Err(ParamError::missing(
            p.long_range.name(),
            "long_range, the weapon's maximum range (range is set)",
        ));
    };
    let short = p.short_range.value.unwrap_or(0.0);
    if short > long {
        return Err(ParamError::new(
            p.short_range.name(),
            format!("short range {short}\" is beyond the long range {long}\""),
        ));
    }
    let (modifier, band) = if short > 0.0 && range <= short {
        (&p.short_hit, short)
    } else if range <= long {
        (&p.long_hit, long - short)
    } else {
        return Err(ParamError::new(
            p.range.name(),
            format!("{range}\" is beyond the weapon's long range {long}\": no shot can hit"),
        ));
    };
    let custom = p.weapon.value.as_deref().is_none_or(|w| w == "custom");
    match modifier.value {
        Some(m) => Ok(m as i32),
        None if custom || band <= 0.0 => Ok(0),
        None => {
            let field = modifier.name();
            Err(ParamError::missing(
                field,
                format!(
                    "{field}, the weapon's hit modifier in that band (the preset does not give it, and krunch invents none)"
                ),
            ))
        }
    }
}
