//! Battlefleet Gothic advanced rules (`seeds/004_d4c8740a73a9c193.txt`):
//! ramming, boarding actions to the end, hit-and-run attacks, critical hits,
//! disengaging and celestial hazards.

pub mod boarding;
pub mod fast;
pub mod mechanics;
pub mod tables;

use crate::engine::step_model::StepModel;
use crate::systems::{Model, ParamError, Params};
use crate::systems::{ParamDecl, PresetDecl, RuleSet, Scenario, VariantDef};
use boarding::{Boarding, Side};
use mechanics::{Hazard, HazardKind, HitAndRun, Ram};
use tables::{Critical, ShipType, ram_test_dice};

/// BFG as the registry sees it.
pub static RULES: RuleSet = RuleSet {
    name: "bfg",
    title: "Battlefleet Gothic (advanced rules)",
    seed: "004_d4c8740a73a9c193.txt",
    readings: include_str!("README.md"),
    variants: VARIANTS,
    presets: PRESETS,
    scenarios: &[
        Scenario {
            name: "ram",
            about: "one ship rams another: the Leadership test, damage dealt and taken",
            seed_section: "ALL AHEAD FULL – RAMMING SPEED!; RAMMING SUMMARY",
            params: ram_params,
            metrics: || mechanics::RAM_METRICS.to_vec(),
            build: build_ram,
            test_points: &[
                &[
                    ("rammer", "agrippa"),
                    ("rammer_leadership", "8"),
                    ("target", "unclean"),
                ],
                &[
                    ("rammer_type", "escort"),
                    ("rammer_starting_damage", "1"),
                    ("rammer_front_armour", "5"),
                    ("rammer_leadership", "7"),
                    ("target_type", "cruiser"),
                    ("target_starting_damage", "8"),
                    ("target_damage", "3"),
                    ("target_front_armour", "6"),
                    ("head_on", "true"),
                ],
            ],
        },
        Scenario {
            name: "boarding",
            about: "a boarding action fought to the end (grapples repeat every end phase)",
            seed_section: "BOARDING ACTIONS; Boarding Modifiers; Boarding Action Results; CRITICAL HITS",
            params: boarding_params,
            metrics: boarding::metric_catalog,
            build: build_boarding,
            test_points: &[
                &[
                    ("attacker", "plagueclaw"),
                    ("defender", "hyperion"),
                    ("defender_turrets", "1"),
                ],
                &[
                    ("boarding_ships", "2"),
                    ("attacker_damage", "2"),
                    ("attacker_starting_damage", "4"),
                    ("attacker2_damage", "1"),
                    ("attacker_escorts", "true"),
                    ("defender_damage", "4"),
                    ("defender_starting_damage", "8"),
                    ("defender_turrets", "2"),
                    ("defender_race", "space_marines"),
                    ("defender_no_lances", "true"),
                ],
            ],
        },
        Scenario {
            name: "hit_and_run",
            about: "hit-and-run attacks: critical hits and their extra damage",
            seed_section: "HIT AND RUN ATTACKS; CRITICAL HITS; Teleport Attacks",
            params: hit_and_run_params,
            metrics: || mechanics::HIT_AND_RUN_METRICS.to_vec(),
            build: build_hit_and_run,
            test_points: &[
                &[("attacks", "3"), ("target_no_lances", "true")],
                &[
                    ("attack", "teleport"),
                    ("attacker_damage", "6"),
                    ("target_damage", "4"),
                    ("plus_one_fleet", "true"),
                    ("target_escort", "true"),
                ],
            ],
        },
        Scenario {
            name: "disengage",
            about: "the Leadership test to disengage from combat",
            seed_section: "DISENGAGING FROM COMBAT",
            params: disengage_params,
            metrics: || mechanics::DISENGAGE_METRICS.to_vec(),
            build: build_disengage,
            test_points: &[&[
                ("leadership", "7"),
                ("blast_markers_within_5cm", "2"),
                ("enemy_ships_or_ordnance", "1"),
            ]],
        },
        Scenario {
            name: "asteroid_field",
            about: "a ship (or attack craft) entering an asteroid field",
            seed_section: "ASTEROID FIELDS",
            params: asteroid_params,
            metrics: || mechanics::ASTEROID_METRICS.to_vec(),
            build: build_asteroid_field,
            test_points: &[
                &[("leadership", "8"), ("shields", "1")],
                &[("leadership", "8"), ("attack_craft", "true")],
            ],
        },
        Scenario {
            name: "warp_rift",
            about: "a ship crossing a warp rift (3D6 Leadership test)",
            seed_section: "WARP RIFTS",
            params: warp_rift_params,
            metrics: || mechanics::WARP_RIFT_METRICS.to_vec(),
            build: build_warp_rift,
            test_points: &[&[("leadership", "9")]],
        },
    ],
};

/// Ship presets: only the numbers the seed's examples give.
pub const PRESETS: &[PresetDecl] = &[
    PresetDecl {
        catalogue: "ship",
        name: "agrippa",
        sets: &[
            ("type", "cruiser"),
            ("starting_damage", "8"),
            ("front_armour", "6"),
        ],
        source: "\"The Agrippa, a Lunar class cruiser ... had a starting damage capacity of 8 ... the Agrippa (which has armour 6 on the front thanks to its armoured prow)\"",
    },
    PresetDecl {
        catalogue: "ship",
        name: "unclean",
        sets: &[
            ("type", "cruiser"),
            ("starting_damage", "8"),
            ("armour", "5"),
            ("front_armour", "5"),
        ],
        source: "\"the Unclean, a Murder class Chaos cruiser ... (which has Armour 5) ... (with a starting damage capacity of 8)\"",
    },
    PresetDecl {
        catalogue: "ship",
        name: "hyperion",
        sets: &[("damage", "3")],
        source: "\"the Hyperion (remaining damage 3)\"",
    },
    PresetDecl {
        catalogue: "ship",
        name: "plagueclaw",
        sets: &[("damage", "6")],
        source: "\"the Plagueclaw (remaining damage 6)\"",
    },
];

const RAMMING: &str = "ALL AHEAD FULL – RAMMING SPEED!";
const BOARDING: &str = "BOARDING ACTIONS";

/// A ship under `prefix`: its preset and the stats named in `stats`
/// (`type`, `starting_damage`, `damage`, `armour`, `front_armour`).
fn ship_params(prefix: &str, who: &str, stats: &[&str], seed: &'static str) -> Vec<ParamDecl> {
    let mut p = vec![
        ParamDecl::preset(prefix, "ship", &format!("{prefix}_"))
            .about(format!(
                "{who}: a ship preset from the seed's examples, or custom"
            ))
            .seed(seed),
    ];
    for stat in stats {
        let name = format!("{prefix}_{stat}");
        p.push(
            match *stat {
                "type" => ParamDecl::choice(
                    name,
                    &[
                        "escort",
                        "cruiser",
                        "grand_cruiser",
                        "battlecruiser",
                        "battleship",
                    ],
                )
                .about(format!("{who}'s type (for the ram test dice)")),
                "starting_damage" => {
                    ParamDecl::int(name, 1, 100).about(format!("{who}'s starting damage capacity"))
                }
                "damage" => ParamDecl::int(name, 0, 100).about(format!(
                    "{who}'s damage left (default: its starting damage)"
                )),
                "armour" => ParamDecl::int(name, 1, 6).about(format!("{who}'s armour")),
                _ => ParamDecl::int(name, 1, 6)
                    .about(format!("{who}'s front armour (default: its armour)")),
            }
            .seed(seed),
        );
    }
    p
}

/// The "next highest" flags: critical results a ship cannot suffer.
fn critical_flags(prefix: &str, who: &str) -> Vec<ParamDecl> {
    ["no_lances", "no_ordnance", "no_shields"]
        .iter()
        .map(|f| {
            ParamDecl::flag(format!("{prefix}_{f}"))
                .about(format!(
                    "{who} has no {}: that critical becomes the next highest",
                    &f[3..]
                ))
                .seed("CRITICAL HITS")
        })
        .collect()
}

/// Parameters of the ram scenario.
pub fn ram_params() -> Vec<ParamDecl> {
    let all = [
        "type",
        "starting_damage",
        "damage",
        "armour",
        "front_armour",
    ];
    let mut p = ship_params("rammer", "the rammer", &all, RAMMING);
    p.retain(|d| d.name != "rammer_armour");
    p.push(
        ParamDecl::int("rammer_leadership", 1, 12)
            .required()
            .about("the rammer's Leadership")
            .seed(RAMMING),
    );
    p.extend(ship_params("target", "the rammed ship", &all, RAMMING));
    p.extend([
        ParamDecl::flag("head_on")
            .about("hitting head on: the target's front armour, and full return dice")
            .seed(RAMMING),
        ParamDecl::flag("target_is_defence")
            .about("the target is a defence: full return dice")
            .seed(RAMMING),
    ]);
    p
}

/// Parameters of the boarding scenario.
pub fn boarding_params() -> Vec<ParamDecl> {
    let mut p = vec![
        ParamDecl::int("boarding_ships", 1, boarding::MAX_ATTACKERS as i64)
            .default("1")
            .about("ships boarding together (their boarding values add up)")
            .seed(BOARDING),
    ];
    for i in 1..=boarding::MAX_ATTACKERS {
        let prefix = if i == 1 {
            "attacker".to_string()
        } else {
            format!("attacker{i}")
        };
        p.extend(ship_params(
            &prefix,
            &format!("boarding ship {i}"),
            &["starting_damage", "damage"],
            BOARDING,
        ));
    }
    p.extend(critical_flags("attacker", "the boarders"));
    p.extend(ship_params(
        "defender",
        "the boarded ship",
        &["starting_damage", "damage"],
        BOARDING,
    ));
    p.extend(critical_flags("defender", "the boarded ship"));
    let races = &["other", "orks", "chaos", "space_marines"];
    p.extend([
        ParamDecl::int("defender_turrets", 0, 20)
            .required()
            .about("remaining turrets of the boarded ship")
            .seed(BOARDING),
        ParamDecl::choice("attacker_race", races)
            .default("other")
            .about("Orks or Chaos +1, Space Marines +2")
            .seed("Boarding Modifiers"),
        ParamDecl::choice("defender_race", races)
            .default("other")
            .about("Orks or Chaos +1, Space Marines +2")
            .seed("Boarding Modifiers"),
        ParamDecl::flag("defender_has_blast_markers")
            .about("+1 to the boarders")
            .seed("Boarding Modifiers"),
        ParamDecl::flag("defender_on_special_orders")
            .about("+1 to the boarders")
            .seed("Boarding Modifiers"),
        ParamDecl::flag("attacker_has_blast_markers")
            .about("+1 to the boarded ship")
            .seed("Boarding Modifiers"),
        ParamDecl::flag("attacker_on_special_orders")
            .about("+1 to the boarded ship")
            .seed("Boarding Modifiers"),
        ParamDecl::flag("attacker_escorts")
            .about("the boarders are escorts: any critical destroys them")
            .seed(BOARDING),
        ParamDecl::flag("defender_escort")
            .about("the boarded ship is an escort: any critical destroys it")
            .seed(BOARDING),
    ]);
    p
}

/// Parameters of the hit-and-run scenario.
pub fn hit_and_run_params() -> Vec<ParamDecl> {
    const HNR: &str = "HIT AND RUN ATTACKS";
    const TELEPORT: &str = "Teleport Attacks";
    let mut p = vec![
        ParamDecl::choice("attack", &["assault_boat", "boarding_torpedo", "teleport"])
            .default("assault_boat")
            .about("how the raid arrives (teleport attacks are checked for eligibility)")
            .seed(HNR),
        ParamDecl::int("attacks", 1, 20)
            .default("1")
            .about("attacks made (a teleport attack: one, \"A ship may only make one teleport attack each turn\")")
            .seed("HIT AND RUN ATTACKS; Teleport Attacks"),
        ParamDecl::flag("plus_one_fleet")
            .about("+1 to the hit-and-run roll")
            .seed(HNR),
        ParamDecl::flag("target_escort")
            .about("the target is an escort: any critical destroys it")
            .seed(HNR),
        ParamDecl::int("target_shields", 0, 10)
            .about("teleport: the target's shields up")
            .seed(TELEPORT),
        ParamDecl::real("range_cm", 0.0, 1000.0)
            .about("teleport: distance to the target")
            .seed(TELEPORT),
        ParamDecl::flag("attacker_crippled")
            .about("teleport: the attacker is crippled")
            .seed(TELEPORT),
        ParamDecl::flag("attacker_on_special_orders")
            .about("teleport: the attacker is on special orders")
            .seed(TELEPORT),
        ParamDecl::flag("attacker_escort_or_defence")
            .about("teleport: the attacker is an escort or defence")
            .seed(TELEPORT),
        ParamDecl::int("attacker_damage", 0, 100)
            .about("teleport: the attacker's damage left")
            .seed(TELEPORT),
        ParamDecl::int("target_damage", 0, 100)
            .about("teleport: the target's damage left")
            .seed(TELEPORT),
    ];
    p.extend(critical_flags("target", "the target"));
    p
}

fn leadership_param(seed: &'static str) -> ParamDecl {
    ParamDecl::int("leadership", 1, 12)
        .required()
        .about("the ship's Leadership")
        .seed(seed)
}

/// Parameters of the disengage scenario.
pub fn disengage_params() -> Vec<ParamDecl> {
    const S: &str = "DISENGAGING FROM COMBAT";
    vec![
        leadership_param(S),
        ParamDecl::int("blast_markers_within_5cm", 0, 20)
            .default("0")
            .about("+1 each")
            .seed(S),
        ParamDecl::flag("celestial_phenomena_within_15cm")
            .about("+3")
            .seed(S),
        ParamDecl::int("enemy_ships_or_ordnance", 0, 20)
            .default("0")
            .about("-1 each")
            .seed(S),
    ]
}

/// Parameters of the asteroid field scenario.
pub fn asteroid_params() -> Vec<ParamDecl> {
    const S: &str = "ASTEROID FIELDS";
    vec![
        leadership_param(S),
        ParamDecl::int("shields", 0, 10)
            .default("0")
            .about("shields block damage as normal")
            .seed(S),
        ParamDecl::flag("attack_craft")
            .about("an attack craft squadron: destroyed on a 6")
            .seed(S),
    ]
}

/// Parameters of the warp rift scenario.
pub fn warp_rift_params() -> Vec<ParamDecl> {
    vec![leadership_param("WARP RIFTS")]
}

/// One ship's parameters under a prefix (`rammer_`, `target_`, ...).
struct Ship {
    kind: Option<ShipType>,
    starting: Option<u32>,
    remaining: Option<u32>,
    armour: Option<u32>,
    front_armour: Option<u32>,
    name: String,
}

fn ship(p: &Params, prefix: &str) -> Result<Ship, ParamError> {
    let field = |f: &str| format!("{prefix}_{f}");
    let declared = |f: &str| p.decls().iter().any(|d| d.name == field(f));
    let name = p.word(prefix)?.unwrap_or_else(|| "custom".into());
    let kind = match declared("type") {
        true => p.word(&field("type"))?.and_then(|t| ShipType::parse(&t)),
        false => None,
    };
    let int = |f: &str| -> Result<Option<u32>, ParamError> {
        if declared(f) {
            Ok(p.int(&field(f))?.map(|v| v as u32))
        } else {
            Ok(None)
        }
    };
    let starting = int("starting_damage")?;
    let remaining = int("damage")?.or(starting);
    if let (Some(s), Some(r)) = (starting, remaining)
        && r > s
    {
        return Err(ParamError::new(
            field("damage"),
            format!("{r} damage left is more than the starting {s}"),
        ));
    }
    let armour = int("armour")?;
    let front_armour = int("front_armour")?.or(armour);
    Ok(Ship {
        kind,
        starting,
        remaining,
        armour,
        front_armour,
        name,
    })
}

fn need<T>(v: Option<T>, field: &str, ship: &str) -> Result<T, ParamError> {
    v.ok_or_else(|| {
        ParamError::missing(
            field,
            format!("ship '{ship}' does not give {field}: set it in the spec (the seed gives no value, and krunch invents none)"),
        )
    })
}

/// Critical results a ship can suffer: `no_lances`, `no_ordnance` ...
fn applies(p: &Params, prefix: &str) -> Result<[bool; 9], ParamError> {
    let mut a = [true; 9];
    let mut off = |flag: &str, c: Critical| -> Result<(), ParamError> {
        if p.flag(&format!("{prefix}_{flag}"))? {
            a[c.index()] = false;
        }
        Ok(())
    };
    off("no_lances", Critical::LancesDamaged)?;
    off("no_ordnance", Critical::OrdnanceBaysHit)?;
    off("no_shields", Critical::ShieldsCollapse)?;
    Ok(a)
}

/// No rule variants yet.
pub const VARIANTS: &[VariantDef] = &[];

fn build_ram(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    {
        {
            let rammer = ship(p, "rammer")?;
            let target = ship(p, "target")?;
            let rk = need(rammer.kind, "rammer_type", &rammer.name)?;
            let tk = need(target.kind, "target_type", &target.name)?;
            let rs = need(rammer.starting, "rammer_starting_damage", &rammer.name)?;
            let ts = need(target.starting, "target_starting_damage", &target.name)?;
            let head_on = p.flag("head_on")?;
            let defence = p.flag("target_is_defence")?;
            let ram = Ram {
                test_dice: ram_test_dice(rk, tk),
                leadership: p.need_int("rammer_leadership")? as i32,
                rammer_starting: rs,
                rammer_remaining: need(rammer.remaining, "rammer_damage", &rammer.name)?,
                rammer_front_armour: need(
                    rammer.front_armour,
                    "rammer_front_armour",
                    &rammer.name,
                )?,
                target_armour: if head_on {
                    need(target.front_armour, "target_front_armour", &target.name)?
                } else {
                    need(target.armour, "target_armour", &target.name)?
                },
                target_starting: ts,
                target_remaining: need(target.remaining, "target_damage", &target.name)?,
                // "rolls a number of D6 equal to half its starting damage";
                // full when head on or a defence
                return_dice: if head_on || defence { ts } else { ts / 2 },
            };
            Ok(Box::new(fast::RamModel::new(ram.into_rule())))
        }
    }
}

fn build_boarding(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    {
        {
            let count = p.int("boarding_ships")?.unwrap_or(1) as usize;
            let mut starting = Vec::new();
            let mut remaining = Vec::new();
            for i in 0..count {
                let prefix = if i == 0 {
                    "attacker".to_string()
                } else {
                    format!("attacker{}", i + 1)
                };
                let s = ship(p, &prefix)?;
                let r = need(s.remaining, &format!("{prefix}_damage"), &s.name)?;
                if r == 0 {
                    return Err(ParamError::new(
                        format!("{prefix}_damage"),
                        "a ship with 0 damage left has a boarding value of zero and cannot board",
                    ));
                }
                remaining.push(r);
                starting.push(s.starting.unwrap_or(r));
            }
            let d = ship(p, "defender")?;
            let dr = need(d.remaining, "defender_damage", &d.name)?;
            let turrets = p.need_int("defender_turrets")? as u32;
            if dr == 0 {
                return Err(ParamError::new(
                    "defender_damage",
                    "the boarded ship is already at 0 damage (boarding value zero): nothing to board",
                ));
            }
            let race = |field: &str| -> Result<i32, ParamError> {
                Ok(match p.word(field)?.as_deref() {
                    Some("orks") | Some("chaos") => 1,
                    Some("space_marines") => 2,
                    _ => 0,
                })
            };
            let flag =
                |f: &str, v: i32| -> Result<i32, ParamError> { Ok(if p.flag(f)? { v } else { 0 }) };
            let attackers = Side {
                starting,
                remaining,
                turrets: 0,
                fixed_modifier: race("attacker_race")?
                    + flag("defender_has_blast_markers", 1)?
                    + flag("defender_on_special_orders", 1)?,
                escorts: p.flag("attacker_escorts")?,
                applies: applies(p, "attacker")?,
            };
            let defender = Side {
                starting: vec![d.starting.unwrap_or(dr)],
                remaining: vec![dr],
                turrets,
                fixed_modifier: race("defender_race")?
                    + flag("attacker_has_blast_markers", 1)?
                    + flag("attacker_on_special_orders", 1)?,
                escorts: p.flag("defender_escort")?,
                applies: applies(p, "defender")?,
            };
            Ok(Box::new(
                Boarding {
                    attackers,
                    defender,
                }
                .into_model(),
            ))
        }
    }
}

fn build_hit_and_run(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    {
        {
            let attack = p.need_word("attack")?;
            if attack == "teleport" {
                teleport_allowed(p)?;
            }
            let h = HitAndRun {
                attacks: p.int("attacks")?.unwrap_or(1) as u32,
                bonus: u32::from(p.flag("plus_one_fleet")?),
                applies: applies(p, "target")?,
                escort: p.flag("target_escort")?,
            };
            Ok(Box::new(StepModel::new(h.into_rule())))
        }
    }
}

fn build_disengage(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    build_hazard("disengage", p)
}

fn build_asteroid_field(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    build_hazard("asteroid_field", p)
}

fn build_warp_rift(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    build_hazard("warp_rift", p)
}

fn build_hazard(scenario: &str, p: &Params) -> Result<Box<dyn Model>, ParamError> {
    {
        {
            let ld = p.need_int("leadership")? as i32;
            let (kind, dice, modifier) = match scenario {
                // "Each Blast marker within 5cm +1, Any celestial phenomena
                // within 15cm +3, Each enemy ship or Ordnance marker -1"
                "disengage" => (
                    HazardKind::Disengage,
                    2,
                    p.int("blast_markers_within_5cm")?.unwrap_or(0) as i32
                        + if p.flag("celestial_phenomena_within_15cm")? {
                            3
                        } else {
                            0
                        }
                        - p.int("enemy_ships_or_ordnance")?.unwrap_or(0) as i32,
                ),
                "asteroid_field" => {
                    if p.flag("attack_craft")? {
                        (HazardKind::AttackCraft, 0, 0)
                    } else {
                        (HazardKind::AsteroidField, 2, 0)
                    }
                }
                _ => (HazardKind::WarpRift, 3, 0),
            };
            let h = Hazard {
                kind,
                test_dice: dice,
                leadership: ld + modifier,
                shields: if kind == HazardKind::AsteroidField {
                    p.int("shields")?.unwrap_or(0) as u32
                } else {
                    0
                },
            };
            Ok(Box::new(StepModel::new(h.into_rule())))
        }
    }
}

/// Teleport Attacks: "against an enemy ship, that has no shields, within
/// 10cm. Ships on special orders and crippled ships may not make teleport
/// attacks ... escorts and defences with only one damage point left cannot
/// ... a ship can't make a teleport attack against a target with more hits
/// at that point in the battle than it has itself." "A ship may only make
/// one teleport attack each turn."
fn teleport_allowed(p: &Params) -> Result<(), ParamError> {
    let no =
        |field: &str, why: &str| Err(ParamError::new(field, format!("no teleport attack: {why}")));
    let attacks = p.int("attacks")?.unwrap_or(1);
    if attacks > 1 {
        return Err(ParamError::new(
            "attacks",
            format!(
                "{attacks} teleport attacks: \"A ship may only make one teleport attack each turn\" (set attacks = 1; ships teleporting together are one run each)"
            ),
        ));
    }
    if p.int("target_shields")?.unwrap_or(0) > 0 {
        return no("target_shields", "the target's shields are up");
    }
    if p.real("range_cm")?.unwrap_or(0.0) > 10.0 {
        return no("range_cm", "the target is beyond 10cm");
    }
    if p.flag("attacker_crippled")? {
        return no(
            "attacker_crippled",
            "crippled ships may not make teleport attacks",
        );
    }
    if p.flag("attacker_on_special_orders")? {
        return no(
            "attacker_on_special_orders",
            "ships on special orders may not make teleport attacks",
        );
    }
    let mine = p.need_int("attacker_damage")?;
    if mine <= 1 && p.flag("attacker_escort_or_defence")? {
        return no(
            "attacker_damage",
            "escorts and defences with one damage point left cannot teleport",
        );
    }
    let theirs = p.need_int("target_damage")?;
    if theirs > mine {
        return no(
            "target_damage",
            "the target has more hits left than the teleporting ship",
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::{seed_text, testing};

    fn hit_and_run(pairs: &[(&str, &str)]) -> Result<Box<dyn Model>, ParamError> {
        testing::build(&RULES, "hit_and_run", pairs)
    }

    /// Teleport Attacks: "A ship may only make one teleport attack each
    /// turn. For each teleport attack make one hit-and-run attack against
    /// the target ship." One teleport attack is made; two are refused
    /// naming `attacks`; two assault boats are still two attacks.
    #[test]
    fn one_teleport_attack_a_turn() {
        if seed_text::available(seed_text::BFG) {
            let text = seed_text::seed(seed_text::BFG);
            assert!(text.contains("A ship may only make one teleport attack each turn."));
        }
        let ship = [
            ("attack", "teleport"),
            ("attacker_damage", "8"),
            ("target_damage", "6"),
        ];
        assert!(hit_and_run(&ship).is_ok());
        let mut two = ship.to_vec();
        two.push(("attacks", "1"));
        assert!(hit_and_run(&two).is_ok());
        two[3] = ("attacks", "2");
        let e = hit_and_run(&two)
            .err()
            .expect("two teleport attacks refused");
        assert_eq!(e.field, "attacks");
        assert!(e.message.contains("one teleport attack each turn"), "{e}");
        assert!(hit_and_run(&[("attack", "assault_boat"), ("attacks", "2")]).is_ok());
    }
}
