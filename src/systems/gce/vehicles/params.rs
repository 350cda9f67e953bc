//! The vehicle scenarios' parameters and builders: each reads the vehicle
//! once through [`VehicleParams`] (a preset or a Hit Location Table).

use super::boarding::{Boarding, BoardingBonus, LoserThrown, PileOn, StationaryHits};
use super::damage::{Penetration, Size, VehicleParams, VehicleRole};
use super::fire::BurningLocation;
use super::gate::{Attack, Gate, Until};
use super::hits::{Cover, Crew, Volley};
use super::movement::{DriverState, Hazard, Leap, OutOfControl, ThrustRun, UNTIL_FAIL_THRUSTS};
use super::rams::{Impact, LargeRake, Mixed, Ram, head_on_equilibrium};
use crate::param_name;
use crate::systems::did_you_mean;
use crate::systems::gce::melee::{FighterParams, FighterRole, second_weapon};
use crate::systems::gce::tables::hit_needed;
use crate::systems::gce::warrior::{Damage, Hit, WarriorStats};
use crate::systems::gce::weapon::SaveModifier;
use crate::systems::gce::{HitModifiers, VictimParams, overwatch_bonus, save_value};
use crate::systems::{FromParam, Given, Model, Opt, ParamDecl, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `vehicle_hits` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const VEHICLE_HITS_SCENARIO: Scenario = Scenario {
    name: "vehicle_hits",
    about: "a volley at a vehicle: one location roll per point of Damage, penetration, the save, Damage Tables, templates on the crew, Catching Fire",
    seed_section: "Vehicles, Taking Damage (Steps 1-5); Template Weapons; Templates and the Crew Location; Vehicles Catching Fire",
    params: HitsParams::decls,
    metrics: || super::hits::VEHICLE_HIT_METRICS.to_vec(),
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
            set: &[("vehicle", "ork_truk")],
            unset: &[],
            field: "vehicle",
            words: &["did you mean 'ork_trukk'"],
        },
        Refusal {
            what: "a vehicle as a Small Target",
            set: &[("small_target", "true")],
            unset: &[],
            field: "small_target",
            words: &["never a Small Target"],
        },
        Refusal {
            what: "a shot beyond the weapon's long range",
            set: &[("range", "19")],
            unset: &[],
            field: "range",
            words: &["beyond the weapon's long range 18"],
        },
        Refusal {
            what: "a location table of two rows",
            set: &[
                ("strength", "4"),
                ("template", "blast"),
                ("crew", "2"),
                ("crew_toughness", "4"),
                ("crew_wounds", "1"),
                ("crew_ws", "3"),
                ("crew_bs", "3"),
                ("locations", "crew 8, engines 10"),
                ("size", "large"),
            ],
            unset: &["weapon", "bs", "range", "shots", "vehicle"],
            field: "locations",
            words: &["six rows"],
        },
        Refusal {
            what: "armour 0",
            set: &[
                ("strength", "4"),
                ("template", "blast"),
                ("crew", "2"),
                ("crew_toughness", "4"),
                ("crew_wounds", "1"),
                ("crew_ws", "3"),
                ("crew_bs", "3"),
                ("locations", "crew 0, a 8, b 8, c 8, d 8, e 8"),
                ("size", "large"),
            ],
            unset: &["weapon", "bs", "range", "shots", "vehicle"],
            field: "locations",
            words: &["Armour 0 is impossible"],
        },
        Refusal {
            what: "negative crew",
            set: &[
                ("vehicle", "ork_trukk"),
                ("strength", "4"),
                ("template", "blast"),
                ("crew", "-1"),
                ("crew_toughness", "4"),
                ("crew_wounds", "1"),
                ("crew_ws", "3"),
                ("crew_bs", "3"),
            ],
            unset: &["weapon", "bs", "range", "shots"],
            field: "crew",
            words: &["-1 is impossible"],
        },
        Refusal {
            what: "a Damage Table for a location it lacks",
            set: &[
                ("vehicle", "ork_trukk"),
                ("strength", "4"),
                ("template", "blast"),
                ("crew", "2"),
                ("crew_toughness", "4"),
                ("crew_wounds", "1"),
                ("crew_ws", "3"),
                ("crew_bs", "3"),
                ("effects", "engine: a, b, c, d, e, f"),
            ],
            unset: &["weapon", "bs", "range", "shots"],
            field: "effects",
            words: &["did you mean 'engines'"],
        },
        Refusal {
            what: "a Damage Table of five results",
            set: &[
                ("vehicle", "ork_trukk"),
                ("strength", "4"),
                ("template", "blast"),
                ("crew", "2"),
                ("crew_toughness", "4"),
                ("crew_wounds", "1"),
                ("crew_ws", "3"),
                ("crew_bs", "3"),
                ("effects", "engines: a, b, c, d, e"),
            ],
            unset: &["weapon", "bs", "range", "shots"],
            field: "effects",
            words: &["six"],
        },
        Refusal {
            what: "a template rolling to hit",
            set: &[
                ("vehicle", "ork_trukk"),
                ("strength", "4"),
                ("template", "blast"),
                ("crew", "2"),
                ("crew_toughness", "4"),
                ("crew_wounds", "1"),
                ("crew_ws", "3"),
                ("crew_bs", "3"),
                ("bs", "3"),
            ],
            unset: &["weapon", "range", "shots"],
            field: "bs",
            words: &["does not roll to hit"],
        },
        Refusal {
            what: "crew hit by a shot that is not a template",
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
            set: &[("size", "small"), ("large_target", "true")],
            unset: &[],
            field: "large_target",
            words: &["excludes small Vehicles like Bikes"],
        },
        Refusal {
            what: "a Trukk's Large Target counted twice",
            set: &[("large_target", "true")],
            unset: &[],
            field: "large_target",
            words: &["counted already"],
        },
        Refusal {
            what: "a Fast Moving Warrior",
            set: &[("fast_moving_warrior", "true")],
            unset: &[],
            field: "fast_moving_warrior",
            words: &["target_moved_fast"],
        },
        Refusal {
            what: "a Shoota's shot with no range",
            set: &[],
            unset: &["range"],
            field: "range",
            words: &["range bands"],
        },
    ],
    naive: crate::systems::gce::naive::VEHICLE_HITS,
};

/// The `vehicle_fire` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const VEHICLE_FIRE_SCENARIO: Scenario = Scenario {
    name: "vehicle_fire",
    about: "a vehicle location on Fire, turn after turn until it goes out (S4 hit on 1-5, helpers +1 each)",
    seed_section: "Taking Damage, Vehicles Catching Fire",
    params: VehicleFireParams::decls,
    metrics: super::fire_metric_catalog,
    build: build_fire,
    variants: &[],
    test_points: &[
        &[
            ("vehicle", "ork_trukk"),
            ("location", "wheels"),
            ("helpers", "2"),
        ],
        &[
            ("vehicle", "ork_trukk"),
            ("location", "crew"),
            ("crew", "2"),
            ("crew_toughness", "3"),
            ("crew_wounds", "1"),
            ("crew_ws", "2"),
            ("crew_bs", "3"),
        ],
    ],
    refusals: &[Refusal {
        what: "a fire on a location it lacks",
        set: &[("location", "wheel")],
        unset: &[],
        field: "location",
        words: &["did you mean 'wheels'"],
    }],
    naive: crate::systems::gce::naive::VEHICLE_FIRE,
};

/// The `thrust` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const THRUST_SCENARIO: Scenario = Scenario {
    name: "thrust",
    about: "a vehicle's Thrusts in one Movement Phase: Thrust Tests, turning, the Thruster Buster Table, inches covered",
    seed_section: "Vehicles, Gas Engines; Thrusters; Turning while Thrusting; Failed Thrust Tests",
    params: ThrustParams::decls,
    metrics: super::thrust_metric_catalog,
    build: build_thrust,
    variants: &[],
    test_points: &[
        &[
            ("vehicle", "ork_trukk"),
            ("thrusts", "3"),
            ("goal_inches", "20"),
        ],
        &[
            ("vehicle", "ork_trukk"),
            ("thrusts", "0"),
            ("turn_leadership", "7"),
        ],
    ],
    refusals: &[Refusal {
        what: "a Thrust score of 1+",
        set: &[("thrust", "1+, 3+")],
        unset: &[],
        field: "thrust",
        words: &["2+ to 6+"],
    }],
    naive: crate::systems::gce::naive::THRUST,
};

/// The `out_of_control` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const OUT_OF_CONTROL_SCENARIO: Scenario = Scenario {
    name: "out_of_control",
    about: "an Out of Control vehicle: turns until a crew member takes the wheel (4+) or the Down driver recovers",
    seed_section: "Vehicles, Out of Control Vehicles; Taking the wheel",
    params: OutOfControlParams::decls,
    metrics: super::out_of_control_metric_catalog,
    build: build_out_of_control,
    variants: &[],
    test_points: &[
        &[("size", "small"), ("crew_able", "1"), ("driver", "down")],
        &[("crew_able", "2")],
    ],
    refusals: &[Refusal {
        what: "a driver asleep",
        set: &[("driver", "asleep")],
        unset: &[],
        field: "driver",
        words: &["'asleep' is not one of: gone, down"],
    }],
    naive: crate::systems::gce::naive::OUT_OF_CONTROL,
};

/// The `vehicle_hazard` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const VEHICLE_HAZARD_SCENARIO: Scenario = Scenario {
    name: "vehicle_hazard",
    about: "a warrior squashed by a vehicle, getting on or off a fast one, or leaping aboard an enemy one: the test, then a S3 hit",
    seed_section: "Squashing Warriors on foot; Gettin’ On or Off Vehicles; Boarding Actions (Movement)",
    params: HazardParams::decls,
    metrics: || super::movement::HAZARD_METRICS.to_vec(),
    build: build_hazard,
    variants: &[],
    test_points: &[
        &[
            ("hazard", "squash"),
            ("initiative", "3"),
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        &[
            ("hazard", "get_on_off"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "6"),
            ("target_ws", "4"),
            ("target_bs", "3"),
        ],
    ],
    refusals: &[Refusal {
        what: "a hazard misspelt",
        set: &[("hazard", "squish")],
        unset: &[],
        field: "hazard",
        words: &["did you mean 'squash'"],
    }],
    naive: crate::systems::gce::naive::VEHICLE_HAZARD,
};

/// The `ram` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const RAM_SCENARIO: Scenario = Scenario {
    name: "ram",
    about: "rakes, sideswipes, shunts, T-bones and head-on rams (a secret choice, or its equilibrium), collisions and crashes, small and large",
    seed_section: "Vehicles, Swerving; Krunch; Rakes and Sideswipes; Rams; Head-On Rams; Collisions; Crashes",
    params: RamParams::decls,
    metrics: || super::rams::RAM_METRICS.to_vec(),
    build: build_ram,
    variants: &["large_rake"],
    test_points: &[
        &[
            ("impact", "t_bone"),
            ("rammer", "ork_trukk"),
            ("target", "ork_trukk"),
            ("target_leadership", "7"),
        ],
        &[
            ("impact", "head_on"),
            ("rammer", "ork_trukk"),
            ("target", "ork_trukk"),
            ("target_size", "small"),
            ("rammer_strategy", "equilibrium"),
            ("target_strategy", "1, 2, 1"),
        ],
        &[
            ("impact", "collision_front"),
            ("rammer", "ork_trukk"),
            ("target", "ork_trukk"),
            ("uncertain", "true"),
            ("target_vehicle_save", "5"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "an unknown impact",
            set: &[("impact", "tbone")],
            unset: &[],
            field: "impact",
            words: &["did you mean 't_bone'"],
        },
        Refusal {
            what: "a Swerve test in a head-on ram",
            set: &[("impact", "head_on")],
            unset: &[],
            field: "target_leadership",
            words: &["head-on"],
        },
        Refusal {
            what: "a strategy of two weights",
            set: &[("impact", "head_on"), ("rammer_strategy", "1, 2")],
            unset: &["target_leadership"],
            field: "rammer_strategy",
            words: &["three whole weights"],
        },
    ],
    naive: crate::systems::gce::naive::RAM,
};

/// The `boarding` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const BOARDING_SCENARIO: Scenario = Scenario {
    name: "boarding",
    about: "warriors boarding a vehicle: leaps, one-on-one fights in turn (Pilin' On groups), losers thrown overboard, unopposed boarders",
    seed_section: "Boarding Actions (Movement); Boarding Actions (Hand-to-hand Combat); Pilin’ On; Unopposed Boarders; Stationary Vehicles (Close Combat)",
    params: BoardingParams::decls,
    metrics: || super::boarding::BOARDING_METRICS.to_vec(),
    build: build_boarding,
    variants: &[
        "boarding_bonus",
        "boarding_loser",
        "stationary_hits",
        "second_weapon",
    ],
    test_points: &[&[
        ("vehicle", "ork_trukk"),
        ("boarder", "krixit"),
        ("boarder_bs", "3"),
        ("boarder_initiative", "3"),
        ("boarder_strength", "3"),
        ("boarder_toughness", "3"),
        ("boarder_wounds", "1"),
        ("defender_ws", "3"),
        ("defender_bs", "3"),
        ("defender_attacks", "1"),
        ("defender_initiative", "2"),
        ("defender_strength", "3"),
        ("defender_toughness", "4"),
        ("defender_wounds", "1"),
        ("boarders", "3"),
        ("crew", "2"),
        ("boarders_pile_on", "one_group"),
        ("stationary", "true"),
    ]],
    refusals: &[
        Refusal {
            what: "no crew",
            set: &[("crew", "0")],
            unset: &[],
            field: "crew",
            words: &["0 is impossible"],
        },
        Refusal {
            what: "unopposed boarders at a location it lacks",
            set: &[("unopposed_location", "engine")],
            unset: &[],
            field: "unopposed_location",
            words: &["did you mean 'engines'"],
        },
    ],
    naive: crate::systems::gce::naive::BOARDING,
};

/// The `gate` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const GATE_SCENARIO: Scenario = Scenario {
    name: "gate",
    about: "a Fort gate (Armour 9) shot, hacked by unopposed warriors or rammed, turn after turn until a gap or destroyed",
    seed_section: "Forts, Opening the Gate",
    params: GateParams::decls,
    metrics: super::gate_metric_catalog,
    build: build_gate,
    variants: &[],
    test_points: &[
        &[("attack", "shots"), ("strength", "5"), ("hits", "2")],
        &[("attack", "ram"), ("until", "destroyed")],
    ],
    refusals: &[Refusal {
        what: "a gate no Strength can dent",
        set: &[("strength", "2")],
        unset: &[],
        field: "strength",
        words: &["never reach Armour 9"],
    }],
    naive: crate::systems::gce::naive::GATE,
};

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

/// Why the warriors aboard are in a scenario: what `crew` says, and what
/// else must hold for them to be hit at all.
pub trait CrewRole {
    /// What the `crew` count means here.
    const ABOUT: &'static str;
    /// Adds what the scenario needs for the crew to be hit.
    fn hit_by(d: ParamDecl) -> ParamDecl;
}

/// The warriors aboard, a group (`crew`, `crew_toughness` ...) whose
/// profile is needed only when there are any.
#[derive(Clone, Debug)]
pub struct CrewParams<R> {
    crew: i64,
    toughness: Opt<i64>,
    wounds: Opt<i64>,
    save: Opt<i64>,
    ws: Opt<i64>,
    bs: Opt<i64>,
    role: std::marker::PhantomData<R>,
}

impl<R: CrewRole> ParamGroup for CrewParams<R> {
    fn decls_with(prefix: &str) -> Vec<ParamDecl> {
        debug_assert!(prefix.is_empty(), "the crew's names carry no prefix");
        crew_params(R::ABOUT, R::hit_by)
    }

    fn read_with(p: &Params, prefix: &str) -> Result<Self, ParamError> {
        let name = |s: &str| format!("{prefix}{s}");
        Ok(CrewParams {
            crew: FromParam::from_param(p, &name("crew"))?,
            toughness: FromParam::from_param(p, &name("crew_toughness"))?,
            wounds: FromParam::from_param(p, &name("crew_wounds"))?,
            save: FromParam::from_param(p, &name("crew_save"))?,
            ws: FromParam::from_param(p, &name("crew_ws"))?,
            bs: FromParam::from_param(p, &name("crew_bs"))?,
            role: std::marker::PhantomData,
        })
    }
}

impl<R> CrewParams<R> {
    /// The crew's count and profile when there is one.
    fn crew(&self) -> Result<Option<(u8, WarriorStats)>, ParamError> {
        let n = self.crew as u8;
        let profile = [
            &self.toughness,
            &self.wounds,
            &self.save,
            &self.ws,
            &self.bs,
        ];
        if n == 0 {
            if let Some(given) = profile.iter().find(|f| f.value.is_some()) {
                return Err(ParamError::new(
                    given.name(),
                    "set, but crew is 0: nobody is aboard",
                ));
            }
            return Ok(None);
        }
        let int = |f: &Opt<i64>| -> Result<u8, ParamError> { Ok(f.need()? as u8) };
        Ok(Some((
            n,
            WarriorStats {
                toughness: int(&self.toughness)?,
                wounds: int(&self.wounds)?,
                save: save_value(&self.save)?,
                ws: int(&self.ws)?,
                bs: int(&self.bs)?,
                pin_immune: false,
            },
        )))
    }
}

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

/// The vehicle on Fire.
#[derive(Clone, Debug)]
pub struct BurningVehicle;
impl VehicleRole for BurningVehicle {
    const WHO: &'static str = "the burning vehicle";
    const THRUST: bool = false;
}

/// The warriors aboard a vehicle on Fire.
#[derive(Clone, Debug)]
pub struct BurningCrew;
impl CrewRole for BurningCrew {
    const ABOUT: &'static str = "warriors aboard, each hit by a Crew location fire";
    fn hit_by(d: ParamDecl) -> ParamDecl {
        d.needs("location", "crew")
    }
}

crate::param_struct! {
    /// Parameters of the vehicle-fire scenario.
    pub struct VehicleFireParams {
        ..vehicle: VehicleParams<BurningVehicle>,
        location: String = text("wheels")
            .required()
            .about("the location on Fire (a name from the Hit Location Table)")
            .seed(FIRE),
        helpers: i64 = int(0, 10)
            .default("0")
            .about("crew members putting it out each turn (+1 each) instead of shooting")
            .seed(FIRE),
        ..crew: CrewParams<BurningCrew>,
    }
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
    let p = VehicleFireParams::read(p)?;
    let vehicle = p.vehicle.vehicle()?;
    let location = location_index(
        &vehicle,
        &p.location,
        param_name!(VehicleFireParams.location),
    )?;
    let crew = p.crew.crew()?;
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
            helpers: p.helpers as u8,
            crew,
        }
        .into_model(TURNS_SHOWN),
    ))
}

const THRUST: &str = "Vehicles, Thrusters; Turning while Thrusting; Failed Thrust Tests";

/// The vehicle thrusting.
#[derive(Clone, Debug)]
pub struct Thruster;
impl VehicleRole for Thruster {
    const WHO: &'static str = "the vehicle";
    const THRUST: bool = true;
}

crate::param_struct! {
    /// Parameters of the thrust scenario.
    pub struct ThrustParams {
        ..vehicle: VehicleParams<Thruster>,
        thrusts: i64 = int(0, 20)
            .default("0")
            .about("Thrusts declared this Movement Phase; 0 keeps thrusting until a Test fails")
            .seed(THRUST),
        thrust_inches: i64 = int(1, 12)
            .default("6")
            .about("inches declared for each Thrust (Ork wheeled vehicles up to 6)")
            .seed(THRUST),
        gas_engine_inches: i64 = int(0, 12)
            .default("6")
            .about("inches moved on Gas Engines first")
            .seed("Vehicles, Gas Engines"),
        turn_leadership: Opt<i64> = int(2, 12)
            .about("the driver turns after each Thrust: a Leadership Test on this Leadership (fail: D6\" forward, move over)")
            .seed(THRUST),
        goal_inches: Opt<i64> = int(1, 200)
            .about("inches the move must cover, for P(covers the goal distance)")
            .seed(THRUST),
    }
}

/// Builds the thrust model.
pub fn build_thrust(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = ThrustParams::read(p)?;
    let declared = p.thrusts as u8;
    Ok(Box::new(
        ThrustRun {
            vehicle: p.vehicle.vehicle()?,
            thrusts: if declared == 0 {
                UNTIL_FAIL_THRUSTS
            } else {
                declared
            },
            until_fail: declared == 0,
            inches: p.thrust_inches as u16,
            gas_engine: p.gas_engine_inches as u16,
            turn_leadership: p.turn_leadership.value.map(|l| l as u8),
            goal: p.goal_inches.value.map(|g| g as u16),
        }
        .into_model(),
    ))
}

const OUT_OF_CONTROL: &str = "Vehicles, Out of Control Vehicles; Taking the wheel";

crate::param_struct! {
    /// Parameters of the out-of-control scenario.
    pub struct OutOfControlParams {
        size: String = choice(&["large", "small"])
            .default("large")
            .about("a small vehicle's crew get one try at the wheel")
            .seed(OUT_OF_CONTROL),
        crew_able: i64 = int(0, 10)
            .default("1")
            .about("crew aboard able to take the wheel (not Down, Pinned or terrified); one tries each turn")
            .seed(OUT_OF_CONTROL),
        driver: String = choice(&["gone", "down"])
            .default("gone")
            .about("the driver is gone (overboard, Out of Action) or Down (recovers on a Flesh Wound)")
            .seed(OUT_OF_CONTROL),
    }
}

/// Builds the out-of-control model.
pub fn build_out_of_control(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = OutOfControlParams::read(p)?;
    Ok(Box::new(
        OutOfControl {
            size: match p.size.as_str() {
                "small" => Size::Small,
                _ => Size::Large,
            },
            crew_able: p.crew_able as u8,
            driver: match p.driver.as_str() {
                "down" => DriverState::Down,
                _ => DriverState::Gone,
            },
        }
        .into_model(TURNS_SHOWN),
    ))
}

crate::param_struct! {
    /// Parameters of the hazard scenario.
    pub struct HazardParams {
        hazard: String = choice(&["squash", "get_on_off", "board"])
            .required()
            .about("squashed by a vehicle (Initiative to dodge), getting on or off a moving vehicle (4+), leaping aboard an enemy vehicle (Initiative)")
            .seed("Squashing Warriors on foot; Gettin’ On or Off Vehicles; Boarding Actions (Movement)"),
        initiative: Opt<i64> = int(1, 10)
            .about("the warrior's Initiative (squash, unless Down; board)")
            .seed("Characteristics"),
        down: bool = flag()
            .about("the warrior is Down: it cannot dodge a squashing")
            .seed("Squashing Warriors on foot"),
        vehicle_fast: bool = flag()
            .default("true")
            .about("the vehicle moved more than 6\" or used its Thrusters (getting on or off needs the 4+ only then)")
            .seed("Gettin’ On or Off Vehicles"),
        ..victim: VictimParams,
    }
}

/// Builds the hazard model.
pub fn build_hazard(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = HazardParams::read(p)?;
    let hazard = match p.hazard.as_str() {
        "squash" => Hazard::Squash,
        "board" => Hazard::Board,
        _ => Hazard::GetOnOrOff,
    };
    let down = p.down;
    if down && hazard != Hazard::Squash {
        return Err(ParamError::new(
            param_name!(HazardParams.down),
            "only a squashing can catch a Down warrior",
        ));
    }
    // a Down warrior "cannot dodge": its Initiative is never tested
    let initiative = match hazard {
        Hazard::GetOnOrOff => p.initiative.value.unwrap_or(1) as u8,
        Hazard::Squash if down => p.initiative.value.unwrap_or(1) as u8,
        _ => p.initiative.need()? as u8,
    };
    Ok(Box::new(
        Leap {
            hazard,
            stats: p.victim.stats()?,
            initiative,
            down,
            vehicle_fast: p.vehicle_fast,
        }
        .into_model(),
    ))
}

/// The vehicle ramming (or crashing).
#[derive(Clone, Debug)]
pub struct Rammer;
impl VehicleRole for Rammer {
    const WHO: &'static str = "the rammer (the vehicle moving, or crashing)";
    const THRUST: bool = false;
}

/// The vehicle rammed.
#[derive(Clone, Debug)]
pub struct Rammed;
impl VehicleRole for Rammed {
    const WHO: &'static str = "the target (not used by crashes)";
    const THRUST: bool = false;
}

crate::param_struct! {
    /// Parameters of the ram scenario.
    pub struct RamParams {
        impact: String = choice(Impact::NAMES)
            .required()
            .about("rake, sideswipe, shunt (rear), t_bone (side), head_on; collision_front/side/other; crash_front/side (into terrain)")
            .seed(RAMMING),
        rammer: VehicleParams<Rammer> = prefixed("rammer_"),
        target: VehicleParams<Rammed> = prefixed("target_"),
        target_leadership: Opt<i64> = int(2, 12)
            .about("the target driver's Leadership: it tests to Swerve (absent: it cannot, or does not, Swerve)")
            .seed("Vehicles, Swerving"),
        uncertain: bool = flag()
            .about("roll a D6 first: 1-3 they scrape paint, 4+ the collision or crash happens")
            .seed("Collisions, Note; Crashes, Clipping"),
        rammer_strategy: String = text("uniform")
            .default("uniform")
            .about("head-on: the rammer's choice, 'uniform', 'equilibrium', or weights 'left, straight, right' such as '1, 2, 1'")
            .seed("Head-On Rams"),
        target_strategy: String = text("uniform")
            .default("uniform")
            .about("head-on: the target's choice, as rammer_strategy")
            .seed("Head-On Rams"),
    }
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
    let p = RamParams::read(p)?;
    let impact = Impact::named(&p.impact).unwrap_or(Impact::Rake);
    let rammer = p.rammer.vehicle()?;
    let target = p.target.vehicle()?;
    let uncertain = p.uncertain;
    if uncertain && !impact.may_be_uncertain() {
        return Err(ParamError::new(
            param_name!(RamParams.uncertain),
            "only collisions and crashes may be uncertain: a ram is declared",
        ));
    }
    let swerve_leadership = p.target_leadership.value.map(|l| l as u8);
    if swerve_leadership.is_some() && !impact.swerve_test() {
        return Err(ParamError::new(
            p.target_leadership.name(),
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
    let strategies = [
        (param_name!(RamParams.rammer_strategy), &p.rammer_strategy),
        (param_name!(RamParams.target_strategy), &p.target_strategy),
    ];
    if impact != Impact::HeadOn {
        // left out, a strategy is its default, "uniform"
        for (f, v) in strategies {
            if v != "uniform" {
                return Err(ParamError::new(f, "strategies are for head-on rams only"));
            }
        }
    }
    ram.strategies = (
        strategy(&p.rammer_strategy, strategies[0].0, x)?,
        strategy(&p.target_strategy, strategies[1].0, y)?,
    );
    Ok(Box::new(ram.into_model()))
}

/// Each warrior boarding.
#[derive(Clone, Debug)]
pub struct EachBoarder;
impl FighterRole for EachBoarder {
    const WHO: &'static str = "each boarder";
    const PSYCHOLOGY: bool = false;
}

/// Each crew member defending the vehicle boarded.
#[derive(Clone, Debug)]
pub struct EachCrewMember;
impl FighterRole for EachCrewMember {
    const WHO: &'static str = "each crew member";
    const PSYCHOLOGY: bool = false;
}

/// The vehicle boarded.
#[derive(Clone, Debug)]
pub struct Boarded;
impl VehicleRole for Boarded {
    const WHO: &'static str = "the boarded vehicle";
    const THRUST: bool = false;
}

crate::param_struct! {
    /// Parameters of the boarding scenario.
    pub struct BoardingParams {
        boarder: FighterParams<EachBoarder> = prefixed("boarder_"),
        defender: FighterParams<EachCrewMember> = prefixed("defender_"),
        ..vehicle: VehicleParams<Boarded>,
        boarders: i64 = int(1, 6)
            .required()
            .about("warriors leaping aboard (each an Initiative Test)")
            .seed(BOARDING),
        crew: i64 = int(1, 6)
            .required()
            .about("warriors aboard to defend it, the driver included (the driver is assigned last)")
            .seed(BOARDING),
        boarders_pile_on: String = choice(&["none", "one_group", "split"])
            .default("none")
            .about("Pilin' On: boarders fight alone, as one group behind a lead, or split into a group per defender")
            .seed("Pilin’ On"),
        crew_pile_on: String = choice(&["none", "one_group", "split"])
            .default("none")
            .about("Pilin' On for the crew, as boarders_pile_on")
            .seed("Pilin’ On"),
        stationary: bool = flag()
            .about("the vehicle is Stationary: no Initiative Tests to board, and unopposed boarders get a bonus D6 to penetrate")
            .seed("Stationary Vehicles (Close Combat)"),
        unopposed_location: Opt<String> = text("engines")
            .about("the location unopposed boarders hit (default: the one with the lowest Armour)")
            .seed("Unopposed Boarders"),
    }
}

/// Builds the boarding model.
pub fn build_boarding(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = BoardingParams::read(p)?;
    let vehicle = p.vehicle.vehicle()?;
    let location = match &p.unopposed_location.value {
        Some(name) => location_index(&vehicle, name, p.unopposed_location.name())?,
        None => (0..6)
            .min_by_key(|&j| vehicle.locations[j].armour)
            .unwrap_or(0),
    };
    let pile = |word: &str| match word {
        "one_group" => PileOn::OneGroup,
        "split" => PileOn::Split,
        _ => PileOn::None,
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
            boarder: p.boarder.fighter(second)?,
            defender: p.defender.fighter(second)?,
            boarders: p.boarders as u8,
            crew: p.crew as u8,
            boarders_pile_on: pile(&p.boarders_pile_on),
            crew_pile_on: pile(&p.crew_pile_on),
            vehicle,
            stationary: p.stationary,
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

const GATE: &str = "Forts, Opening the Gate";

crate::param_struct! {
    /// Parameters of the gate scenario.
    pub struct GateParams {
        attack: String = choice(&["shots", "unopposed", "ram"])
            .required()
            .about("hits landing each turn, warriors unopposed at the gate (WS automatic hits each), or a vehicle ramming it each turn")
            .seed(GATE),
        armour: i64 = int(1, 20)
            .default("9")
            .about("the gate's Armour")
            .seed(GATE),
        strength: Opt<i64> = int(1, 10)
            .about("the hits' Strength (shots, unopposed)")
            .seed(GATE),
        hits: Opt<i64> = int(1, 20)
            .about("hits landing each turn (shots)")
            .seed(GATE),
        warriors: i64 = int(1, 10)
            .default("1")
            .about("warriors unopposed at the gate (unopposed)")
            .seed(GATE),
        ws: Opt<i64> = int(1, 10)
            .about("each unopposed warrior's Weapon Skill with modifiers: its automatic hits")
            .seed(GATE),
        rammer_size: String = choice(&["large", "small"])
            .default("large")
            .about("the ramming vehicle: large deals D3 automatic points, small 1")
            .seed(GATE),
        until: String = choice(&["gap", "destroyed"])
            .default("gap")
            .about("what the turns are counted until: gap (a gap in the gate, or worse) or destroyed (the gate destroyed)")
            .seed(GATE),
    }
}

/// Builds the gate model.
pub fn build_gate(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = GateParams::read(p)?;
    let attack = match p.attack.as_str() {
        "shots" => Attack::Hits {
            strength: p.strength.need()? as u8,
            hits: p.hits.need()? as u8,
        },
        "unopposed" => {
            let hits = p.ws.need()? * p.warriors;
            if hits > 20 {
                return Err(ParamError::new(
                    param_name!(GateParams.warriors),
                    format!("{hits} automatic hits a turn: at most 20"),
                ));
            }
            Attack::Hits {
                strength: p.strength.need()? as u8,
                hits: hits as u8,
            }
        }
        _ => Attack::Ram(match p.rammer_size.as_str() {
            "small" => Size::Small,
            _ => Size::Large,
        }),
    };
    let gate = Gate {
        armour: p.armour as u8,
        attack,
        until: match p.until.as_str() {
            "destroyed" => Until::Destroyed,
            _ => Until::Gap,
        },
    };
    if !gate.can_penetrate() {
        return Err(ParamError::new(
            param_name!(GateParams.strength),
            format!(
                "a D6 plus Strength can never reach Armour {}: the gate would stand forever",
                gate.armour
            ),
        ));
    }
    Ok(Box::new(gate.into_model(TURNS_SHOWN)))
}
