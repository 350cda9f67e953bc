//! The vehicle scenarios' parameters and builders: each reads the vehicle
//! once through [`vehicle_params`] (a preset or a Hit Location Table).

use super::boarding::{Boarding, BoardingBonus, LoserThrown, PileOn, StationaryHits};
use super::damage::{Penetration, Size, vehicle_from, vehicle_params};
use super::fire::BurningLocation;
use super::gate::{Attack, Gate, Until};
use super::hits::{Cover, Crew, Volley};
use super::movement::{DriverState, Hazard, Leap, OutOfControl, ThrustRun, UNTIL_FAIL_THRUSTS};
use super::rams::{Impact, LargeRake, Mixed, Ram, head_on_equilibrium};
use crate::systems::did_you_mean;
use crate::systems::gce::melee::{fighter, fighter_params, second_weapon};
use crate::systems::gce::tables::hit_needed;
use crate::systems::gce::warrior::{Hit, WarriorStats};
use crate::systems::gce::weapon::{Damage, SaveModifier};
use crate::systems::gce::{
    hit_modifier_params, overwatch_bonus, save_value, situational_hit_modifier,
};
use crate::systems::{Model, ParamDecl, ParamError, Params};

const TEMPLATES: &str = "Taking Damage, Template Weapons; Templates and the Crew Location";
const FIRE: &str = "Taking Damage, Vehicles Catching Fire";
const RAMMING: &str = "Vehicles, Ramming; Collisions; Crashes";
const BOARDING: &str =
    "Boarding Actions (Movement); Boarding Actions (Hand-to-hand Combat); Pilin’ On";

/// Turn counts shown one by one by the repeating vehicle scenarios.
const TURNS_SHOWN: usize = 6;

/// A crew's profile, `prefix` `crew_`, for hits on the warriors aboard.
/// `hit_by` adds what the scenario needs for the crew to be hit at all.
fn crew_params(about: &str, hit_by: fn(ParamDecl) -> ParamDecl) -> Vec<ParamDecl> {
    const PROFILE: &str = "Characteristics; Injuries";
    // a crew's stat is used with a crew, and a crew needs the four stats
    // it is rolled with: each stat needs the crew and the other three
    const NEEDED: [(&str, &str); 4] = [
        ("crew_toughness", "3"),
        ("crew_wounds", "1"),
        ("crew_ws", "3"),
        ("crew_bs", "3"),
    ];
    let with_crew = |d: ParamDecl| {
        let name = d.name.clone();
        hit_by(
            NEEDED
                .iter()
                .filter(|(n, _)| *n != name)
                .fold(d.needs_any("crew", "1"), |d, (n, v)| d.needs_any(*n, v)),
        )
    };
    vec![
        ParamDecl::int("crew", 0, 10)
            .default("0")
            .about(about.to_string())
            .seed(TEMPLATES),
        with_crew(
            ParamDecl::int("crew_toughness", 1, 10)
                .about("each warrior aboard: Toughness (needed with crew)")
                .seed(PROFILE),
        ),
        with_crew(
            ParamDecl::int("crew_wounds", 1, 20)
                .about("each warrior aboard: Wounds (needed with crew)")
                .seed(PROFILE),
        ),
        with_crew(
            ParamDecl::int("crew_save", 0, 7)
                .about("each warrior aboard: armour save (2-6), 0 or absent for none")
                .seed(PROFILE),
        ),
        with_crew(
            ParamDecl::int("crew_ws", 1, 10)
                .about("each warrior aboard: WS, for Flesh Wounds (needed with crew)")
                .seed(PROFILE),
        ),
        with_crew(
            ParamDecl::int("crew_bs", 1, 10)
                .about("each warrior aboard: BS, for Flesh Wounds (needed with crew)")
                .seed(PROFILE),
        ),
    ]
}

/// The crew's profile when there is one.
fn crew_from(p: &Params) -> Result<Option<(u8, WarriorStats)>, ParamError> {
    let n = p.int("crew")?.unwrap_or(0) as u8;
    if n == 0 {
        for f in [
            "crew_toughness",
            "crew_wounds",
            "crew_save",
            "crew_ws",
            "crew_bs",
        ] {
            if p.has(f) {
                return Err(ParamError::new(f, "set, but crew is 0: nobody is aboard"));
            }
        }
        return Ok(None);
    }
    let int = |f: &str| -> Result<u8, ParamError> { Ok(p.need_int(f)? as u8) };
    Ok(Some((
        n,
        WarriorStats {
            toughness: int("crew_toughness")?,
            wounds: int("crew_wounds")?,
            save: save_value(p, "crew_save")?,
            ws: int("crew_ws")?,
            bs: int("crew_bs")?,
            pin_immune: false,
        },
    )))
}

/// Parameters of the vehicle-hits scenario.
pub fn hits_params() -> Vec<ParamDecl> {
    let mut p = vehicle_params("", "the vehicle", false);
    p.extend([
        ParamDecl::preset("weapon", "weapon", "")
            .about("a weapon preset whose numbers the seed gives, or custom")
            .seed("Weapon Statlines"),
        ParamDecl::int("strength", 1, 10)
            .about("the hit's Strength (not needed when it penetrates automatically)")
            .seed("Taking Damage, Step 2 - Penetrate Armour"),
        ParamDecl::text("save_mod", "-1")
            .about("the weapon's save modifier for hits on warriors aboard (a number, or \"varies\"; absent: by Strength)")
            .seed("Shooting, Step 4 – Saving Throws"),
        ParamDecl::text("damage", "D3")
            .default("1")
            .about("Damage per hit: each point rolls its own location")
            .seed("Taking Damage, Step 1 - Determine Location"),
        ParamDecl::int("shots", 1, 10)
            .default("1")
            .about("shots fired (a template weapon: one; on full auto the Sustained Fire dice say)")
            .seed("Shooting"),
        ParamDecl::int("sf_dice", 0, 6)
            .about("the weapon's Sustained Fire dice (a preset's, or a custom weapon's)")
            .seed("Firing on Full Auto"),
        ParamDecl::choice("fire_mode", &["single", "full_auto"])
            .default("single")
            .about("single shots, or Full Auto: the shots are rolled on the Sustained Fire dice (a jam: no shot from that die)")
            .seed("Firing on Full Auto"),
        ParamDecl::int("sf_fired", 1, 6)
            .about("Sustained Fire dice fired on Full Auto (default: every one the weapon has)")
            .seed("Firing on Full Auto")
            .needs("fire_mode", "full_auto")
            .needs_any("sf_dice", "2")
            .needs_unset("shots"),
        ParamDecl::int("bs", 0, 10)
            .about("the firer's BS: each shot rolls to hit (a large vehicle is a Large Target, +1); absent, every shot hits")
            .seed("Shooting, Step 2 – Roll to Hit"),
        ParamDecl::real("range", 0.0, 1000.0)
            .about("inches to the vehicle, for the weapon's range band (needed with bs when the weapon has bands)")
            .seed("Range Modifiers"),
        ParamDecl::real("short_range", 0.0, 1000.0)
            .about("upper end of the weapon's short range band, inches (0 = no short band)")
            .seed("Weapon Statlines"),
        ParamDecl::real("long_range", 0.0, 1000.0)
            .about("upper end of the weapon's long range band (its maximum range), inches")
            .seed("Weapon Statlines"),
        ParamDecl::int("short_hit", -6, 6)
            .about("hit modifier in the short band (custom weapons: none when not given)")
            .seed("Weapon Statlines"),
        ParamDecl::int("long_hit", -6, 6)
            .about("hit modifier in the long band (custom weapons: none when not given)")
            .seed("Weapon Statlines"),
        ParamDecl::choice("template", &["none", "blast", "teardrop"])
            .default("none")
            .about("the weapon's template")
            .seed(TEMPLATES),
        ParamDecl::choice("coverage", &["full", "partial"])
            .default("full")
            .about("a template's Full Hit (D3 hits) or Partial Hit (one hit on 4+)")
            .seed(TEMPLATES)
            .needs("template", "blast")
            .needs_unset("bs")
            .needs_unset("shots")
            .needs_unset("range"),
        ParamDecl::int("catch_fire", 0, 6)
            .default("0")
            .about("Catching Fire: a hit location catches fire on this score or more (0: never)")
            .seed(FIRE),
        ParamDecl::flag("auto_penetrate")
            .about("every point penetrates automatically (rams, crashes, some Gubbins)")
            .seed("Taking Damage, Step 2 - Penetrate Armour"),
    ]);
    // the Hit Modifiers a vehicle cannot be: said where they are listed
    p.extend(hit_modifier_params().into_iter().map(|d| {
        let about = match d.name.as_str() {
            "large_target" => {
                "refused: a large vehicle is a Large Target by its size (+1 counted), a small one (a Bike) never"
            }
            "small_target" => "refused: a vehicle is never a Small Target (less than ½\" tall and wide)",
            "fast_moving_warrior" => {
                "refused: a vehicle is not a Warrior on foot (its speed is target_moved_fast)"
            }
            _ => return d,
        };
        d.about(about)
    }));
    p.extend(crew_params(
        "warriors aboard (Gunner, crew, boarders) each hit once when a template hits the Crew location",
        // "only a template hit on the Crew location hits the warriors
        // aboard", and a template does not roll to hit
        |d| {
            d.needs("template", "blast")
                .needs_unset("bs")
                .needs_unset("shots")
            .needs_unset("range")
        },
    ));
    p
}

/// Builds the vehicle-hits model.
pub fn build_hits(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let vehicle = vehicle_from(p, "", false)?;
    let auto = p.flag("auto_penetrate")?;
    let strength = p.int("strength")?;
    let strength = match (auto, strength) {
        (true, Some(_)) => {
            return Err(ParamError::new(
                "strength",
                "set, but auto_penetrate is true: automatic penetration ignores Strength",
            ));
        }
        (true, None) => 4,
        (false, s) => match s {
            Some(s) => s as u8,
            None => p.need_int("strength")? as u8,
        },
    };
    let damage = Damage::parse(&p.need_word("damage")?)
        .map_err(|e| ParamError::new("damage", e.to_string()))?;
    // "Varies" (or no field) leaves the modifier to the Strength.
    let save_modifier = match p.word("save_mod")?.as_deref().map(SaveModifier::parse) {
        Some(Ok(SaveModifier::Fixed(m))) => Some(m),
        Some(Err(e)) => return Err(e),
        Some(Ok(SaveModifier::Varies)) | None => None,
    };
    let mut hit = Hit::by_strength(strength, damage);
    if let Some(m) = save_modifier {
        hit.save_modifier = Some(m);
    }
    let template = p.word("template")?.unwrap_or_default();
    let cover = match (template.as_str(), p.word("coverage")?.as_deref()) {
        ("none", _) => Cover::Shot,
        (_, Some("partial")) => Cover::Partial,
        _ => Cover::Full,
    };
    let shots = p.int("shots")?.unwrap_or(1) as u32;
    // "A full auto weapon has one or more Sustained Fire Dice on its
    // profile"; "you may choose to fire a single shot as normal or up to as
    // many Sustained Fire dice as is allowed by the weapon"
    let sf_dice = p.int("sf_dice")?.unwrap_or(0) as u32;
    let sustained_fire_dice = match p.word("fire_mode")?.as_deref() {
        Some("full_auto") => {
            if sf_dice == 0 {
                return Err(ParamError::new(
                    "fire_mode",
                    "the weapon has no Sustained Fire dice (set sf_dice or a weapon preset with them), so it cannot fire on full auto",
                ));
            }
            if cover != Cover::Shot {
                return Err(ParamError::new(
                    "fire_mode",
                    "a template weapon fires once, not on full auto",
                ));
            }
            if p.has("shots") {
                return Err(ParamError::new(
                    "shots",
                    "on full auto the Sustained Fire dice give the shots: leave shots out",
                ));
            }
            let fired = p.int("sf_fired")?.unwrap_or(i64::from(sf_dice)) as u32;
            if fired > sf_dice {
                return Err(ParamError::new(
                    "sf_fired",
                    format!("{fired} Sustained Fire dice, but the weapon has {sf_dice}"),
                ));
            }
            fired
        }
        _ => {
            if p.has("sf_fired") {
                return Err(ParamError::new(
                    "sf_fired",
                    "Sustained Fire dice are fired on full auto: set fire_mode = \"full_auto\"",
                ));
            }
            0
        }
    };
    if cover != Cover::Shot {
        if p.has("bs") {
            return Err(ParamError::new(
                "bs",
                "a template does not roll to hit here: coverage (full or partial) says how it lies over the vehicle",
            ));
        }
        if shots != 1 {
            return Err(ParamError::new("shots", "a template weapon fires once"));
        }
    } else if p.has("coverage") {
        return Err(ParamError::new(
            "coverage",
            "coverage is for template weapons: set template = \"blast\" or \"teardrop\"",
        ));
    }
    let to_hit = match p.int("bs")? {
        Some(bs) => Some(hit_needed(
            bs as i32,
            situational_hit_modifier(p, overwatch_bonus(variants)?)?
                + vehicle_target(p, vehicle.size)?
                + range_band(p)?,
        )),
        None => {
            if p.has("range") {
                return Err(ParamError::new(
                    "range",
                    "range is for the to-hit roll: set bs (absent, every shot hits)",
                ));
            }
            None
        }
    };
    let crew = crew_from(p)?.map(|(count, stats)| Crew { count, stats });
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
    let catch_fire = match p.int("catch_fire")? {
        None | Some(0) => None,
        Some(n) => Some(n as u32),
    };
    let most_shots = if sustained_fire_dice > 0 {
        3 * sustained_fire_dice
    } else {
        shots
    };
    let damage_max = damage.max() * most_shots * if cover == Cover::Full { 3 } else { 1 };
    if damage_max > 60 {
        return Err(ParamError::new(
            "damage",
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
fn vehicle_target(p: &Params, size: Size) -> Result<i32, ParamError> {
    if p.flag("small_target")? {
        return Err(ParamError::new(
            "small_target",
            "a vehicle is never a Small Target (\"The whole Target is less than ½” tall and wide\")",
        ));
    }
    if p.flag("fast_moving_warrior")? {
        return Err(ParamError::new(
            "fast_moving_warrior",
            "a vehicle is not a Fast Moving Warrior (\"Warriors on foot\"): a vehicle that moved more than 6\" is target_moved_fast",
        ));
    }
    if p.flag("large_target")? {
        return Err(ParamError::new(
            "large_target",
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
fn range_band(p: &Params) -> Result<i32, ParamError> {
    let long = p.real("long_range")?;
    let Some(range) = p.real("range")? else {
        if long.is_some() {
            return Err(ParamError::missing(
                "range",
                "range, the inches to the vehicle (the weapon has range bands)",
            ));
        }
        return Ok(0);
    };
    if p.word("template")?.is_some_and(|t| t != "none") {
        return Err(ParamError::new(
            "range",
            "a template does not roll to hit here: coverage says how it lies over the vehicle",
        ));
    }
    let Some(long) = long else {
        return Err(ParamError::missing(
            "long_range",
            "long_range, the weapon's maximum range (range is set)",
        ));
    };
    let short = p.real("short_range")?.unwrap_or(0.0);
    if short > long {
        return Err(ParamError::new(
            "short_range",
            format!("short range {short}\" is beyond the long range {long}\""),
        ));
    }
    let (field, band) = if short > 0.0 && range <= short {
        ("short_hit", short)
    } else if range <= long {
        ("long_hit", long - short)
    } else {
        return Err(ParamError::new(
            "range",
            format!("{range}\" is beyond the weapon's long range {long}\": no shot can hit"),
        ));
    };
    let custom = p.word("weapon")?.is_none_or(|w| w == "custom");
    match p.int(field)? {
        Some(m) => Ok(m as i32),
        None if custom || band <= 0.0 => Ok(0),
        None => Err(ParamError::missing(
            field,
            format!(
                "{field}, the weapon's hit modifier in that band (the preset does not give it, and krunch invents none)"
            ),
        )),
    }
}

/// Parameters of the vehicle-fire scenario.
pub fn fire_params() -> Vec<ParamDecl> {
    let mut p = vehicle_params("", "the burning vehicle", false);
    p.extend([
        ParamDecl::text("location", "wheels")
            .required()
            .about("the location on Fire (a name from the Hit Location Table)")
            .seed(FIRE),
        ParamDecl::int("helpers", 0, 10)
            .default("0")
            .about("crew members putting it out each turn (+1 each) instead of shooting")
            .seed(FIRE),
    ]);
    p.extend(crew_params(
        "warriors aboard, each hit by a Crew location fire",
        |d| d.needs("location", "crew"),
    ));
    p
}

/// A location named in a spec, with "did you mean".
fn location_index(
    vehicle: &super::damage::Vehicle,
    name: &str,
    field: &str,
) -> Result<usize, ParamError> {
    let key = name.trim().to_ascii_lowercase().replace([' ', '-'], "_");
    vehicle.location_named(&key).ok_or_else(|| {
        let names: Vec<&str> = vehicle.locations.iter().map(|l| l.name.as_str()).collect();
        ParamError::new(
            field,
            format!(
                "no location '{name}' in the Hit Location Table (locations: {}){}",
                names.join(", "),
                did_you_mean(&key, names.iter().copied())
            ),
        )
    })
}

/// Builds the vehicle-fire model.
pub fn build_fire(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let vehicle = vehicle_from(p, "", false)?;
    let location = location_index(&vehicle, &p.need_word("location")?, "location")?;
    let crew = crew_from(p)?;
    if crew.is_some() && vehicle.crew_location() != Some(location) {
        return Err(ParamError::new(
            "crew",
            "the warriors aboard are hit only when the Crew location burns",
        ));
    }
    Ok(Box::new(
        BurningLocation {
            vehicle,
            location,
            helpers: p.int("helpers")?.unwrap_or(0) as u8,
            crew,
        }
        .into_model(TURNS_SHOWN),
    ))
}

/// Parameters of the thrust scenario.
pub fn thrust_params() -> Vec<ParamDecl> {
    const THRUST: &str = "Vehicles, Thrusters; Turning while Thrusting; Failed Thrust Tests";
    let mut p = vehicle_params("", "the vehicle", true);
    p.extend([
        ParamDecl::int("thrusts", 0, 20)
            .default("0")
            .about("Thrusts declared this Movement Phase; 0 keeps thrusting until a Test fails")
            .seed(THRUST),
        ParamDecl::int("thrust_inches", 1, 12)
            .default("6")
            .about("inches declared for each Thrust (Ork wheeled vehicles up to 6)")
            .seed(THRUST),
        ParamDecl::int("gas_engine_inches", 0, 12)
            .default("6")
            .about("inches moved on Gas Engines first")
            .seed("Vehicles, Gas Engines"),
        ParamDecl::int("turn_leadership", 2, 12)
            .about("the driver turns after each Thrust: a Leadership Test on this Leadership (fail: D6\" forward, move over)")
            .seed(THRUST),
        ParamDecl::int("goal_inches", 1, 200)
            .about("inches the move must cover, for P(covers the goal distance)")
            .seed(THRUST),
    ]);
    p
}

/// Builds the thrust model.
pub fn build_thrust(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let declared = p.int("thrusts")?.unwrap_or(0) as u8;
    Ok(Box::new(
        ThrustRun {
            vehicle: vehicle_from(p, "", true)?,
            thrusts: if declared == 0 {
                UNTIL_FAIL_THRUSTS
            } else {
                declared
            },
            until_fail: declared == 0,
            inches: p.int("thrust_inches")?.unwrap_or(6) as u16,
            gas_engine: p.int("gas_engine_inches")?.unwrap_or(6) as u16,
            turn_leadership: p.int("turn_leadership")?.map(|l| l as u8),
            goal: p.int("goal_inches")?.map(|g| g as u16),
        }
        .into_model(),
    ))
}

/// Parameters of the out-of-control scenario.
pub fn out_of_control_params() -> Vec<ParamDecl> {
    const OOC: &str = "Vehicles, Out of Control Vehicles; Taking the wheel";
    vec![
        ParamDecl::choice("size", &["large", "small"])
            .default("large")
            .about("a small vehicle's crew get one try at the wheel")
            .seed(OOC),
        ParamDecl::int("crew_able", 0, 10)
            .default("1")
            .about("crew aboard able to take the wheel (not Down, Pinned or terrified); one tries each turn")
            .seed(OOC),
        ParamDecl::choice("driver", &["gone", "down"])
            .default("gone")
            .about("the driver is gone (overboard, Out of Action) or Down (recovers on a Flesh Wound)")
            .seed(OOC),
    ]
}

/// Builds the out-of-control model.
pub fn build_out_of_control(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    Ok(Box::new(
        OutOfControl {
            size: match p.word("size")?.as_deref() {
                Some("small") => Size::Small,
                _ => Size::Large,
            },
            crew_able: p.int("crew_able")?.unwrap_or(1) as u8,
            driver: match p.word("driver")?.as_deref() {
                Some("down") => DriverState::Down,
                _ => DriverState::Gone,
            },
        }
        .into_model(TURNS_SHOWN),
    ))
}

/// Parameters of the hazard scenario.
pub fn hazard_params() -> Vec<ParamDecl> {
    let mut p = vec![
        ParamDecl::choice("hazard", &["squash", "get_on_off", "board"])
            .required()
            .about("squashed by a vehicle (Initiative to dodge), getting on or off a moving vehicle (4+), leaping aboard an enemy vehicle (Initiative)")
            .seed("Squashing Warriors on foot; Gettin’ On or Off Vehicles; Boarding Actions (Movement)"),
        ParamDecl::int("initiative", 1, 10)
            .about("the warrior's Initiative (squash, unless Down; board)")
            .seed("Characteristics"),
        ParamDecl::flag("down")
            .about("the warrior is Down: it cannot dodge a squashing")
            .seed("Squashing Warriors on foot"),
        ParamDecl::flag("vehicle_fast")
            .default("true")
            .about("the vehicle moved more than 6\" or used its Thrusters (getting on or off needs the 4+ only then)")
            .seed("Gettin’ On or Off Vehicles"),
    ];
    p.extend(crate::systems::gce::victim_params());
    p
}

/// Builds the hazard model.
pub fn build_hazard(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let hazard = match p.need_word("hazard")?.as_str() {
        "squash" => Hazard::Squash,
        "board" => Hazard::Board,
        _ => Hazard::GetOnOrOff,
    };
    let down = p.flag("down")?;
    if down && hazard != Hazard::Squash {
        return Err(ParamError::new(
            "down",
            "only a squashing can catch a Down warrior",
        ));
    }
    // a Down warrior "cannot dodge": its Initiative is never tested
    let initiative = match hazard {
        Hazard::GetOnOrOff => p.int("initiative")?.unwrap_or(1) as u8,
        Hazard::Squash if down => p.int("initiative")?.unwrap_or(1) as u8,
        _ => p.need_int("initiative")? as u8,
    };
    Ok(Box::new(
        Leap {
            hazard,
            stats: crate::systems::gce::victim(p)?,
            initiative,
            down,
            vehicle_fast: p.flag("vehicle_fast")?,
        }
        .into_model(),
    ))
}

/// Parameters of the ram scenario.
pub fn ram_params() -> Vec<ParamDecl> {
    let mut p = vec![
        ParamDecl::choice("impact", Impact::NAMES)
            .required()
            .about("rake, sideswipe, shunt (rear), t_bone (side), head_on; collision_front/side/other; crash_front/side (into terrain)")
            .seed(RAMMING),
    ];
    p.extend(vehicle_params(
        "rammer_",
        "the rammer (the vehicle moving, or crashing)",
        false,
    ));
    p.extend(vehicle_params(
        "target_",
        "the target (not used by crashes)",
        false,
    ));
    p.extend([
        ParamDecl::int("target_leadership", 2, 12)
            .about("the target driver's Leadership: it tests to Swerve (absent: it cannot, or does not, Swerve)")
            .seed("Vehicles, Swerving"),
        ParamDecl::flag("uncertain")
            .about("roll a D6 first: 1-3 they scrape paint, 4+ the collision or crash happens")
            .seed("Collisions, Note; Crashes, Clipping"),
        ParamDecl::text("rammer_strategy", "uniform")
            .default("uniform")
            .about("head-on: the rammer's choice, 'uniform', 'equilibrium', or weights 'left, straight, right' such as '1, 2, 1'")
            .seed("Head-On Rams"),
        ParamDecl::text("target_strategy", "uniform")
            .default("uniform")
            .about("head-on: the target's choice, as rammer_strategy")
            .seed("Head-On Rams"),
    ]);
    p
}

/// A strategy as a spec writes it.
fn strategy(text: &str, field: &str, equilibrium: [f64; 3]) -> Result<Mixed, ParamError> {
    match text.trim() {
        "uniform" => Ok(Mixed::UNIFORM),
        "equilibrium" => Ok(Mixed::from_probabilities(equilibrium)),
        t => {
            let w: Vec<u32> = t
                .split(',')
                .map(|x| x.trim().parse::<u32>())
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    ParamError::new(
                        field,
                        format!("'{t}' is not 'uniform', 'equilibrium' or three whole weights 'left, straight, right'"),
                    )
                })?;
            if w.len() != 3 || w.iter().sum::<u32>() == 0 || w.iter().any(|&x| x > 1000) {
                return Err(ParamError::new(
                    field,
                    format!(
                        "'{t}': give three whole weights 0-1000 for left, straight, right, not all 0"
                    ),
                ));
            }
            Ok(Mixed([w[0], w[1], w[2]]))
        }
    }
}

/// Builds the ram model.
pub fn build_ram(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let impact = Impact::named(&p.need_word("impact")?).unwrap_or(Impact::Rake);
    let rammer = vehicle_from(p, "rammer_", false)?;
    let target = vehicle_from(p, "target_", false)?;
    let uncertain = p.flag("uncertain")?;
    if uncertain && !impact.may_be_uncertain() {
        return Err(ParamError::new(
            "uncertain",
            "only collisions and crashes may be uncertain: a ram is declared",
        ));
    }
    let swerve_leadership = p.int("target_leadership")?.map(|l| l as u8);
    if swerve_leadership.is_some() && !impact.swerve_test() {
        return Err(ParamError::new(
            "target_leadership",
            "no Swerve test here: head-on rams are a secret choice, and crashes cannot be swerved",
        ));
    }
    let rake = match variants.word("large_rake")?.as_deref() {
        Some("always") => LargeRake::Always,
        _ => LargeRake::VersusSmall,
    };
    let mut ram = Ram {
        impact,
        rammer,
        target,
        swerve_leadership,
        uncertain,
        strategies: (Mixed::UNIFORM, Mixed::UNIFORM),
        rake,
    };
    let (x, y, _) = head_on_equilibrium(ram.head_on_payoffs());
    let r = p.word("rammer_strategy")?.unwrap_or_default();
    let t = p.word("target_strategy")?.unwrap_or_default();
    if impact != Impact::HeadOn {
        for (f, v) in [("rammer_strategy", &r), ("target_strategy", &t)] {
            if p.has(f) && v != "uniform" {
                return Err(ParamError::new(f, "strategies are for head-on rams only"));
            }
        }
    }
    ram.strategies = (
        strategy(&r, "rammer_strategy", x)?,
        strategy(&t, "target_strategy", y)?,
    );
    Ok(Box::new(ram.into_model()))
}

/// Parameters of the boarding scenario.
pub fn boarding_params() -> Vec<ParamDecl> {
    let mut p = fighter_params("boarder_", "each boarder", false);
    p.extend(fighter_params("defender_", "each crew member", false));
    p.extend(vehicle_params("", "the boarded vehicle", false));
    p.extend([
        ParamDecl::int("boarders", 1, 6)
            .required()
            .about("warriors leaping aboard (each an Initiative Test)")
            .seed(BOARDING),
        ParamDecl::int("crew", 1, 6)
            .required()
            .about("warriors aboard to defend it, the driver included (the driver is assigned last)")
            .seed(BOARDING),
        ParamDecl::choice("boarders_pile_on", &["none", "one_group", "split"])
            .default("none")
            .about("Pilin' On: boarders fight alone, as one group behind a lead, or split into a group per defender")
            .seed("Pilin’ On"),
        ParamDecl::choice("crew_pile_on", &["none", "one_group", "split"])
            .default("none")
            .about("Pilin' On for the crew, as boarders_pile_on")
            .seed("Pilin’ On"),
        ParamDecl::flag("stationary")
            .about("the vehicle is Stationary: no Initiative Tests to board, and unopposed boarders get a bonus D6 to penetrate")
            .seed("Stationary Vehicles (Close Combat)"),
        ParamDecl::text("unopposed_location", "engines")
            .about("the location unopposed boarders hit (default: the one with the lowest Armour)")
            .seed("Unopposed Boarders"),
    ]);
    p
}

/// Builds the boarding model.
pub fn build_boarding(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let vehicle = vehicle_from(p, "", false)?;
    let location = match p.word("unopposed_location")? {
        Some(name) => location_index(&vehicle, &name, "unopposed_location")?,
        None => (0..6)
            .min_by_key(|&j| vehicle.locations[j].armour)
            .unwrap_or(0),
    };
    let pile = |f: &str| -> Result<PileOn, ParamError> {
        Ok(match p.word(f)?.as_deref() {
            Some("one_group") => PileOn::OneGroup,
            Some("split") => PileOn::Split,
            _ => PileOn::None,
        })
    };
    let bonus = match variants.word("boarding_bonus")?.as_deref() {
        Some("plus_one") => BoardingBonus::PlusOne,
        _ => BoardingBonus::Cancelled,
    };
    let loser = match variants.word("boarding_loser")?.as_deref() {
        Some("down_or_out") => LoserThrown::DownOrOut,
        _ => LoserThrown::Every,
    };
    let second = second_weapon(variants)?;
    Ok(Box::new(
        Boarding {
            boarder: fighter(p, "boarder_", false, second)?,
            defender: fighter(p, "defender_", false, second)?,
            boarders: p.need_int("boarders")? as u8,
            crew: p.need_int("crew")? as u8,
            boarders_pile_on: pile("boarders_pile_on")?,
            crew_pile_on: pile("crew_pile_on")?,
            vehicle,
            stationary: p.flag("stationary")?,
            stationary_hits: match variants.word("stationary_hits")?.as_deref() {
                Some("ws") => StationaryHits::WeaponSkill,
                _ => StationaryHits::Attacks,
            },
            location,
            bonus,
            loser,
        }
        .into_model(),
    ))
}

/// Parameters of the gate scenario.
pub fn gate_params() -> Vec<ParamDecl> {
    const GATE: &str = "Forts, Opening the Gate";
    vec![
        ParamDecl::choice("attack", &["shots", "unopposed", "ram"])
            .required()
            .about("hits landing each turn, warriors unopposed at the gate (WS automatic hits each), or a vehicle ramming it each turn")
            .seed(GATE),
        ParamDecl::int("armour", 1, 20)
            .default("9")
            .about("the gate's Armour")
            .seed(GATE),
        ParamDecl::int("strength", 1, 10)
            .about("the hits' Strength (shots, unopposed)")
            .seed(GATE),
        ParamDecl::int("hits", 1, 20)
            .about("hits landing each turn (shots)")
            .seed(GATE),
        ParamDecl::int("warriors", 1, 10)
            .default("1")
            .about("warriors unopposed at the gate (unopposed)")
            .seed(GATE),
        ParamDecl::int("ws", 1, 10)
            .about("each unopposed warrior's Weapon Skill with modifiers: its automatic hits")
            .seed(GATE),
        ParamDecl::choice("rammer_size", &["large", "small"])
            .default("large")
            .about("the ramming vehicle: large deals D3 automatic points, small 1")
            .seed(GATE),
        ParamDecl::choice("until", &["gap", "destroyed"])
            .default("gap")
            .about("what the turns are counted until: gap (a gap in the gate, or worse) or destroyed (the gate destroyed)")
            .seed(GATE),
    ]
}

/// Builds the gate model.
pub fn build_gate(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let attack = match p.need_word("attack")?.as_str() {
        "shots" => Attack::Hits {
            strength: p.need_int("strength")? as u8,
            hits: p.need_int("hits")? as u8,
        },
        "unopposed" => {
            let hits = p.need_int("ws")? * p.int("warriors")?.unwrap_or(1);
            if hits > 20 {
                return Err(ParamError::new(
                    "warriors",
                    format!("{hits} automatic hits a turn: at most 20"),
                ));
            }
            Attack::Hits {
                strength: p.need_int("strength")? as u8,
                hits: hits as u8,
            }
        }
        _ => Attack::Ram(match p.word("rammer_size")?.as_deref() {
            Some("small") => Size::Small,
            _ => Size::Large,
        }),
    };
    let gate = Gate {
        armour: p.int("armour")?.unwrap_or(9) as u8,
        attack,
        until: match p.word("until")?.as_deref() {
            Some("destroyed") => Until::Destroyed,
            _ => Until::Gap,
        },
    };
    if !gate.can_penetrate() {
        return Err(ParamError::new(
            "strength",
            format!(
                "a D6 plus Strength can never reach Armour {}: the gate would stand forever",
                gate.armour
            ),
        ));
    }
    Ok(Box::new(gate.into_model(TURNS_SHOWN)))
}
