//! The D20 sci-fi skirmish tables (`seeds/001_9921de03e7af5dba.txt`): the
//! Ranged and Close Combat Weapons Factor Charts as data a spec extends
//! (every row a preset; a row of one's own is text in the chart's column
//! order), to hit and penetrate with its modifiers, jams, blasts and
//! lock-on, the Effect of Hit Chart, the Vehicle Damage Table as a Markov
//! chain, Quick Draw initiative, hit allocation, Necron repair, close
//! combat, and a squad under fire over turns.

pub mod chart;
pub mod close;
pub mod fire;
pub mod hits;
mod naive;
pub mod shooting;
pub mod squad;
pub mod vehicle;

use crate::engine::step_model::StepModel;
use crate::systems::{Given, Model, Opt, ParamError, ParamGroup, Params, Refusal};
use crate::systems::{RuleSet, Scenario, VariantDef};
use chart::{AREAS, Armour, RangedRow, WEAPON_CLASSES, parse_ranged_row};
use fire::{Firer, Modifiers, Toughness};

/// The seed file.
pub const SEED: &str = "001_9921de03e7af5dba.txt";

const CHART: &str = "RANGED COMBAT WEAPONS FACTOR CHART";
const MODIFIERS: &str = "RANGED TO HIT MODIFIERS";
const EFFECT: &str = "EFFECT OF HIT CHART";
const AP: &str = "ACTION POINTS";

/// The D20 skirmish tables as the registry sees them.
pub static RULES: RuleSet = RuleSet {
    name: "skirmish20",
    title: "D20 sci-fi skirmish tables",
    seed: SEED,
    readings: include_str!("README.md"),
    variants: VARIANTS,
    presets: chart::PRESETS,
    scenarios: &[
        SHOOTING_SCENARIO,
        EFFECT_OF_HIT_SCENARIO,
        VEHICLE_DAMAGE_SCENARIO,
        QUICK_DRAW_SCENARIO,
        HIT_ALLOCATION_SCENARIO,
        NECRON_REPAIR_SCENARIO,
        close::CLOSE_COMBAT_SCENARIO,
        squad::SQUAD_UNDER_FIRE_SCENARIO,
    ],
};

/// The `shooting` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const SHOOTING_SCENARIO: Scenario = Scenario {
    name: "shooting",
    about: "one firer's turn of fire at a target: lock-on, to hit and penetrate, jams, effect of hit, others under the blast",
    seed_section: "RANGED COMBAT WEAPONS FACTOR CHART; RANGED TO HIT MODIFIERS; EFFECT OF HIT CHART; ACTION POINTS; WEAPONS FACTOR CHART (explanation)",
    params: ShootingParams::decls,
    metrics: || shooting::METRICS.to_vec(),
    build: build_shooting,
    variants: &["no_minor_gun", "blast_roll"],
    test_points: &[
        &[("weapon", "bolt_rifle"), ("armour", "std"), ("range", "12")],
        &[
            ("weapon", "missile_launcher"),
            ("armour", "power"),
            ("range", "20"),
            ("target_ignores_duck_backs", "true"),
            ("others_under_template", "2"),
            ("others_partly_under", "2"),
        ],
        &[
            ("weapon", "flame_thrower"),
            ("armour", "std"),
            ("range", "6"),
            ("target_kind", "hero"),
            ("target_enhanced_nervous_system", "true"),
            ("others_under_template", "1"),
            ("others_partly_under", "2"),
            ("moved_d6", "1"),
            ("firer_ap", "4"),
        ],
        &[
            ("weapon", "heavy_bolter"),
            ("armour", "storm"),
            ("range", "10"),
            ("target_kind", "hero"),
            ("target_scarab_swarm", "true"),
            ("target_ignores_duck_backs", "true"),
        ],
        &[
            ("weapon", "laser_machine_pistol"),
            ("armour", "std"),
            ("range", "4"),
            ("assaulted_before_turn", "true"),
            ("target_cover", "moving"),
        ],
        &[
            ("weapon", "plasma_pistol"),
            ("armour", "tank"),
            ("range", "6"),
            ("target_size", "tank"),
            ("target_vehicle", "true"),
            ("firer_wounded", "true"),
            ("marksman", "true"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "an X value with a modifier",
            point: 0,
            set: &[
                ("weapon", "custom"),
                ("weapon_row", "24 | 8 | 6 | 4 | X+2 | 1 | jam"),
            ],
            unset: &[],
            field: "weapon_row",
            words: &["X means no chance"],
        },
        Refusal {
            what: "a weapon row with three armour values",
            point: 0,
            set: &[
                ("weapon", "custom"),
                ("weapon_row", "24 | 8 | 6 | 4 | 1/2 | jam"),
            ],
            unset: &[],
            field: "weapon_row",
            words: &["3 armour values"],
        },
        Refusal {
            what: "a bad AP cost",
            point: 0,
            set: &[("weapon_row", "24 | 8 | 6 | 4 | 1 | 3 | jam")],
            unset: &["weapon"],
            field: "weapon_row",
            words: &["must be 1, 2 or 1/2"],
        },
        Refusal {
            what: "beyond the weapon's range",
            point: 0,
            set: &[("range", "30")],
            unset: &[],
            field: "range",
            words: &["maximum range of 24"],
        },
        Refusal {
            what: "others under a weapon with no area",
            point: 0,
            set: &[("others_under_template", "2")],
            unset: &[],
            field: "others_under_template",
            words: &["covers no area"],
        },
        Refusal {
            what: "vehicle guns on a target that is not a vehicle",
            point: 0,
            set: &[("target_minor_guns", "2")],
            unset: &[],
            field: "target_minor_guns",
            words: &["target_vehicle"],
        },
        Refusal {
            what: "a heavy weapon firing at assaulters before its turn",
            point: 0,
            set: &[
                ("weapon", "heavy_bolter"),
                ("assaulted_before_turn", "true"),
            ],
            unset: &[],
            field: "assaulted_before_turn",
            words: &["Heavy weapons"],
        },
        Refusal {
            what: "an unknown armour class",
            point: 0,
            set: &[("armour", "plate")],
            unset: &[],
            field: "armour",
            words: &["'plate'"],
        },
    ],
    naive: crate::systems::skirmish20::naive::SHOOTING,
};

/// The `effect_of_hit` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const EFFECT_OF_HIT_SCENARIO: Scenario = Scenario {
    name: "effect_of_hit",
    about: "several hits on one figure: duck back, wounded, dead",
    seed_section: "EFFECT OF HIT CHART; EFFECTS OF HIT; SPECIAL SKILLS (Enhanced Nervous system)",
    params: EffectParams::decls,
    metrics: || hits::EFFECT_METRICS.to_vec(),
    build: build_effect,
    variants: &[],
    test_points: &[
        &[("hits", "2")],
        &[
            ("hits", "3"),
            ("target_kind", "hero"),
            ("target_enhanced_nervous_system", "true"),
        ],
    ],
    refusals: &[Refusal {
        what: "a target that is neither trooper nor hero",
        point: 0,
        set: &[("target_kind", "dragon")],
        unset: &[],
        field: "target_kind",
        words: &["'dragon' is not one of: trooper, hero"],
    }],
    naive: crate::systems::skirmish20::naive::EFFECT_OF_HIT,
};

/// The `vehicle_damage` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const VEHICLE_DAMAGE_SCENARIO: Scenario = Scenario {
    name: "vehicle_damage",
    about: "a vehicle after k penetrating hits (take the next one up), and its passengers",
    seed_section: "Vehicle Damage Table 1D10; Vehicle characteristics table; EFFECT OF HIT CHART",
    params: VehicleParams::decls,
    metrics: || vehicle::METRICS.to_vec(),
    build: build_vehicle,
    variants: &["no_minor_gun"],
    test_points: &[
        &[("vehicle", "chimera"), ("hits", "3"), ("passengers", "4")],
        &[("vehicle", "sentinel"), ("hits", "5")],
    ],
    refusals: &[
        Refusal {
            what: "a vehicle misspelt",
            point: 0,
            set: &[("vehicle", "chimaera")],
            unset: &[],
            field: "vehicle",
            words: &["did you mean 'chimera'"],
        },
        Refusal {
            what: "passengers in a Sentinel walker",
            point: 0,
            set: &[("vehicle", "sentinel")],
            unset: &[],
            field: "passengers",
            words: &["All passengers (if APC)"],
        },
    ],
    naive: crate::systems::skirmish20::naive::VEHICLE_DAMAGE,
};

/// The `quick_draw` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const QUICK_DRAW_SCENARIO: Scenario = Scenario {
    name: "quick_draw",
    about: "who fires first: D10 + armour and weapon modifiers for two characters",
    seed_section: "Quick Draw INITIATIVE TABLE (1D10); SHOOT",
    params: QuickDrawParams::decls,
    metrics: || hits::QUICK_DRAW_METRICS.to_vec(),
    build: build_quick_draw,
    variants: &["quick_draw_tie"],
    test_points: &[
        &[
            ("a_armour", "std"),
            ("a_weapon", "hand_gun"),
            ("b_armour", "power"),
            ("b_weapon", "rifle"),
        ],
        &[
            ("a_armour", "storm"),
            ("a_fast_draw", "true"),
            ("b_armour", "std"),
            ("b_ahead_of_turn", "true"),
        ],
    ],
    refusals: &[Refusal {
        what: "a weapon class misspelt",
        point: 0,
        set: &[("b_weapon", "rifel")],
        unset: &[],
        field: "b_weapon",
        words: &["did you mean 'rifle'"],
    }],
    naive: crate::systems::skirmish20::naive::QUICK_DRAW,
};

/// The `hit_allocation` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const HIT_ALLOCATION_SCENARIO: Scenario = Scenario {
    name: "hit_allocation",
    about: "one D6 per attack into a squad with a Hero: a 6 goes to the Hero",
    seed_section: "UNIT COHESION (allocating casualties in ranged combat)",
    params: AllocationParams::decls,
    metrics: || hits::ALLOCATION_METRICS.to_vec(),
    build: build_allocation,
    variants: &[],
    test_points: &[&[("attacks", "12")]],
    refusals: &[Refusal {
        what: "no attacks",
        point: 0,
        set: &[("attacks", "0")],
        unset: &[],
        field: "attacks",
        words: &["0 is impossible"],
    }],
    naive: crate::systems::skirmish20::naive::HIT_ALLOCATION,
};

/// The `necron_repair` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const NECRON_REPAIR_SCENARIO: Scenario = Scenario {
    name: "necron_repair",
    about: "Necrons destroyed last turn roll to stand back up (5+, 4+ near a Lord or Tomb Spider)",
    seed_section: "NECRON SPECIAL RULES",
    params: RepairParams::decls,
    metrics: || hits::REPAIR_METRICS.to_vec(),
    build: build_repair,
    variants: &[],
    test_points: &[
        &[("destroyed", "4"), ("destroyed_on_a_one", "1")],
        &[("destroyed", "3"), ("near_lord_or_tomb_spider", "true")],
    ],
    refusals: &[Refusal {
        what: "more destroyed on a 1 than destroyed",
        point: 0,
        set: &[("destroyed_on_a_one", "5")],
        unset: &[],
        field: "destroyed_on_a_one",
        words: &["out of only 4 destroyed"],
    }],
    naive: crate::systems::skirmish20::naive::NECRON_REPAIR,
};

/// Rule variants: readings where the seed can be read two ways.
pub const VARIANTS: &[VariantDef] = &[
    VariantDef {
        name: "no_minor_gun",
        values: &["no_effect", "next_up"],
        about: "a 5 on the Vehicle Damage Table on a vehicle that never had a minor gun: no effect (default: \"(if there is a minor gun)\"), or damage already suffered, take the next one up; a vehicle that lost its minor guns takes the next one up either way",
    },
    VariantDef {
        name: "quick_draw_tie",
        values: &["simultaneous", "roll_again"],
        about: "a tie on the Quick Draw roll (the seed does not say): both fire at once (default), or roll again",
    },
    VariantDef {
        name: "blast_roll",
        values: &["each_figure", "once"],
        about: "figures under a blast or template besides the target: each rolls its own D20 against its value, only the firing's own roll able to jam (default: \"roll 8 or less for any other target caught in the blast area\"; \"you still only get one chance of a 20\"), or the firing's one D20 is read against every value (\"Only roll once per weapon firing\")",
    },
    VariantDef {
        name: "wound_allocation",
        values: &["spread", "stack"],
        about: "the defender allocates a Wounded result: to an unwounded figure while there is one (default: more wounded, fewer dead), or onto a wounded one, killing it (\"add the wounds to the existing wounded figures and kill them\")",
    },
];

crate::param_struct! {
    /// The weapon: a chart row by name or a row of one's own.
    pub struct WeaponParams {
        weapon: Opt<String> = preset("weapon", "weapon_")
            .about("a row of the chart by name, or custom (then give weapon_row)")
            .seed(CHART),
        weapon_row: String = text("24 | 8 | 6 | 4 | 1 | 1/2 | jam")
            .required()
            .about("the weapon's chart row: max range | std | storm | power | tank | AP | effect of a 20; blasts 12/8, lock-on 18/8 L-10, X = no chance")
            .seed(CHART),
        weapon_area: String = choice(AREAS)
            .default("none")
            .about("what the weapon covers: a small or large blast, the flamer's template, or none")
            .seed("WEAPONS FACTOR CHART (explanation): blast radius counters"),
        weapon_heavy: Given<bool> = flag()
            .about("a heavy weapon (the presets say; a row of one's own left out: heavy when it costs 2 AP): no wounded human fires it, nor a firer assaulted before its turn; a 1-AP heavy weapon's jam only misses the rest of the turn")
            .seed("WEAPONS FACTOR CHART (explanation); ACTION POINTS; ASSAULT"),
    }
}

crate::param_struct! {
    /// The firer's action points and ranged modifiers.
    pub struct FirerParams {
        range: i64 = int(0, 200)
            .default("1")
            .about("inches to the target (1/2 AP weapons: 1 AP up to half range)")
            .seed(CHART),
        firer_ap: i64 = int(1, 6)
            .default("3")
            .about("the firer's AP a turn: 3; vehicles, sentinels, Necron destroyers 4; Veteran Hero +1")
            .seed(AP),
        firing_ap: Given<i64> = int(1, 2)
            .default("2")
            .about("AP spent firing (no more than 2); left out: 2, or what moving leaves; given, more than moving leaves is refused")
            .seed(AP),
        moved_d6: i64 = int(0, 4)
            .default("0")
            .about("AP spent moving first, 1D6\" each: -1 to hit each")
            .seed(MODIFIERS),
        firer_wounded: bool = flag()
            .about("-2 to hit, and wounded lose 1 AP; a wounded human cannot fire a heavy weapon")
            .seed(MODIFIERS),
        firer_human: bool = flag()
            .default("true")
            .about("the firer is human (false: a Necron, Tyranid or war droid): \"No wounded human can fire or help fire a heavy weapon\"")
            .seed(AP),
        firer_in_vehicle: bool = flag()
            .about("firing from a vehicle: don't count the first D6 of movement")
            .seed(MODIFIERS),
        marksman: bool = flag().about("+2 to hit").seed("SPECIAL SKILLS"),
        shoot_on_the_move: bool = flag()
            .about("no modifiers for either firer or target moving")
            .seed("SPECIAL SKILLS"),
    }
}

crate::param_struct! {
    /// The target's armour, cover and size.
    pub struct TargetParams {
        armour: Armour = choice(Armour::WORDS)
            .required()
            .about("the target's armour class: std 5+, storm 4+ (Tau), power 3+ (Necrons, Chimera), tank 2+")
            .seed(CHART),
        target_cover: String = choice(&["none", "moving", "cover"])
            .default("none")
            .about("target moving over 3\" or under cover: -2 (Shoot on the Move ignores moving)")
            .seed(MODIFIERS),
        target_camoline: bool = flag()
            .about("target in stealth Camoline: -1")
            .seed(MODIFIERS),
        target_size: Opt<String> = choice(&["normal", "large", "tank"])
            .about("large target +1, tanks +2; left out: +2 against tank armour or a vehicle target (\"targets like Tanks get automatic +2 to hit them as large targets\"; the Chimera APC \"+2 large\"), else none; a Sentinel walker \"+1 bit large\": large")
            .seed(MODIFIERS),
    }
}

crate::param_struct! {
    /// One firer's shot at a target: the weapon, the firer, the target
    /// (the shooting and squad scenarios' common parameters).
    pub struct ShotParams {
        ..weapon: WeaponParams,
        ..firer: FirerParams,
        ..target: TargetParams,
    }
}

impl ShotParams {
    /// The weapon row given.
    pub fn weapon_row(&self) -> Result<RangedRow, ParamError> {
        parse_ranged_row(
            &self.weapon.weapon_row,
            crate::param_name!(WeaponParams.weapon_row),
        )
    }

    /// Whether the weapon is heavy: as given (every preset says), else a
    /// row of one's own is heavy when it costs 2 AP ("Heavy weapons which
    /// are large weapons which normally need 2AP's to fire").
    pub fn weapon_heavy(&self, row: &RangedRow) -> bool {
        self.weapon
            .weapon_heavy
            .given_value()
            .unwrap_or(row.ap == chart::ApCost::Two)
    }

    /// The firer given.
    pub fn firer(&self) -> Result<Firer, ParamError> {
        let f = &self.firer;
        let row = self.weapon_row()?;
        let wounded = f.firer_wounded;
        let heavy = self.weapon_heavy(&row);
        // "No wounded human can fire or help fire a heavy weapon"; "1
        // uninjured Human crew member is required to fire a heavy weapon of any
        // sort, including hand held ones. i.e. injured can't use heavy weapons."
        if wounded && heavy && f.firer_human {
            return Err(ParamError::new(
                crate::param_name!(FirerParams.firer_wounded),
                "\"No wounded human can fire or help fire a heavy weapon\": a wounded human firer with a heavy weapon cannot fire (firer_human = false for a Necron, Tyranid or war droid)",
            ));
        }
        let ap = f.firer_ap as u32;
        let turn_ap = ap.saturating_sub(u32::from(wounded));
        let moved_d6 = f.moved_d6 as u32;
        let firing_ap = f.firing_ap.value as u32;
        // "all others must be used moving": AP given to firing that moving has
        // already spent are refused, not cut (left out, firing_ap takes what
        // is left, as before)
        let left = turn_ap.saturating_sub(moved_d6);
        if f.firing_ap.given && moved_d6 <= turn_ap && firing_ap > left {
            return Err(ParamError::new(
                crate::param_name!(FirerParams.firing_ap),
                format!(
                    "{firing_ap} AP spent firing, but moving {moved_d6} D6 leaves {left} of the firer's {turn_ap} AP{}: set firing_ap to at most {left} or move less",
                    if wounded { " (wounded: 1 AP less)" } else { "" }
                ),
            ));
        }
        Ok(Firer {
            row,
            range: f.range as u32,
            ap: turn_ap,
            moved_d6,
            firing_ap,
            heavy,
        })
    }

    /// The ranged modifiers given; `vehicle_target`: the target is said to
    /// be a vehicle (only `shooting` has vehicle targets: a squad is of
    /// figures).
    pub fn modifiers(&self, vehicle_target: bool) -> Modifiers {
        let cover = self.target.target_cover.as_str();
        Modifiers {
            firer_wounded: self.firer.firer_wounded,
            moved_d6: self.firer.moved_d6 as u32,
            from_vehicle: self.firer.firer_in_vehicle,
            camoline: self.target.target_camoline,
            target_moving: cover == "moving",
            target_cover: cover == "cover",
            large: match self.target_size(vehicle_target) {
                "large" => 1,
                "tank" => 2,
                _ => 0,
            },
            marksman: self.firer.marksman,
            shoot_on_the_move: self.firer.shoot_on_the_move,
        }
    }

    /// The target's size: as given, or, left out, a tank's for a target in
    /// tank armour or said to be a vehicle ("Remember targets like Tanks get
    /// automatic +2 to hit them as large targets"; the Vehicle characteristics
    /// table gives the Chimera APC "+2 large" in "Power" armour and the Big
    /// Tank "+2 large", "Power to rear/top"), else normal. A walker says its
    /// own ("Sentinel Walker ... +1 bit large": `target_size = "large"`).
    pub fn target_size(&self, vehicle_target: bool) -> &str {
        match &self.target.target_size.value {
            Some(size) => size,
            None if self.target.armour == Armour::Tank => "tank",
            None if vehicle_target => "tank",
            None => "normal",
        }
    }
}

crate::param_struct! {
    /// What kind of figure takes the hits (under a prefix: `target_`, or a
    /// close combat side's).
    pub struct ToughnessParams {
        kind: String = choice(&["trooper", "hero"])
            .default("trooper")
            .about("common trooper or Hero (a multi-wound character; scarab swarms count as Hero)")
            .seed(EFFECT),
        ignores_duck_backs: bool = flag()
            .about("Necrons, Tyranids and war droids are not affected by Duck Backs")
            .seed("EFFECTS OF HIT"),
        enhanced_nervous_system: bool = flag()
            .about("ignores Duck Backs and the first wound; a 2nd wound still kills")
            .seed("SPECIAL SKILLS"),
    }
}

impl ToughnessParams {
    /// The toughness given.
    pub fn toughness(&self) -> Toughness {
        Toughness {
            hero: self.kind == "hero",
            ignores_duck_backs: self.ignores_duck_backs,
            enhanced_nervous_system: self.enhanced_nervous_system,
        }
    }
}

crate::param_struct! {
    /// Parameters of the shooting scenario.
    pub struct ShootingParams {
        ..shot: ShotParams,
        toughness: ToughnessParams = prefixed("target_"),
        target_wounded: bool = flag()
            .about("the target is already wounded (a second wound kills)")
            .seed(EFFECT),
        target_vehicle: Given<bool> = flag()
            .about("the target is a vehicle: each hit that penetrates rolls on the Vehicle Damage Table (Effect of Hit metrics give way to the vehicle's), and it is a large target, +2 unless target_size says otherwise (a walker: large, +1); implied by armour = tank or target_size = tank, needed for a power-armoured Chimera, a tank's rear or a walker")
            .seed("Vehicle Damage Table 1D10"),
        target_minor_guns: Given<i64> = int(0, 4)
            .default("1")
            .about("a vehicle target's guns besides the biggest (a Chimera: 1)")
            .seed("Vehicle characteristics table")
            .needs("target_vehicle", "true"),
        target_scarab_swarm: bool = flag()
            .about("a Necron scarab swarm: an area weapon's hit counts as two hits (set target_kind = hero, armour = storm)")
            .seed("NECRON SPECIAL RULES"),
        assaulted_before_turn: bool = flag()
            .about("firing at assaulters before one's card is drawn: -1 if the chart value is under 8, else -2; no heavy weapons")
            .seed("ASSAULT"),
        others_under_template: i64 = int(0, 12)
            .default("0")
            .about("troopers wholly under the blast besides the target (common troopers of the same armour; the chart's second value)")
            .seed("WEAPONS FACTOR CHART (explanation)"),
        others_partly_under: i64 = int(0, 12)
            .default("0")
            .about("troopers partly under: a blast hits them on a D6 4+, the flamer's template always")
            .seed("WEAPONS FACTOR CHART (explanation)"),
    }
}

impl ShootingParams {
    /// A vehicle target's damage rule, when the target is a vehicle.
    fn vehicle_target(&self, v: &Params) -> Result<Option<vehicle::VehicleDamage>, ParamError> {
        // Tank armour ("the strongest armour ... 13 or 14 armour in WH40K") and
        // a tank's size are a vehicle's: such a target is a vehicle without
        // target_vehicle, and target_vehicle = false cannot say otherwise.
        let target = &self.shot.target;
        let tank = if target.armour == Armour::Tank {
            Some(crate::param_name!(TargetParams.armour))
        } else if target.target_size.value.as_deref() == Some("tank") {
            Some(target.target_size.name())
        } else {
            None
        };
        if let Some(field) = tank
            && self.target_vehicle.given_value() == Some(false)
        {
            return Err(ParamError::new(
                crate::param_name!(ShootingParams.target_vehicle),
                format!(
                    "{field} = \"tank\" is a vehicle's: its hits roll on the Vehicle Damage Table; leave target_vehicle out (or give the figure's own armour and size)"
                ),
            ));
        }
        if tank.is_none() && !self.target_vehicle.value {
            if self.target_minor_guns.given {
                return Err(ParamError::new(
                    crate::param_name!(ShootingParams.target_minor_guns),
                    "only a vehicle target has guns: set target_vehicle = true",
                ));
            }
            return Ok(None);
        }
        Ok(Some(vehicle::VehicleDamage {
            hits: 0,
            minor_guns: self.target_minor_guns.value as u8,
            passengers: 0,
            no_minor_gun: no_minor_gun(v)?,
        }))
    }
}

/// The `blast_roll` variant: one D20 for everyone under a blast.
fn blast_once(v: &Params) -> Result<bool, ParamError> {
    Ok(v.word("blast_roll")?.as_deref() == Some("once"))
}

fn no_minor_gun(v: &Params) -> Result<vehicle::NoMinorGun, ParamError> {
    Ok(if v.word("no_minor_gun")?.as_deref() == Some("next_up") {
        vehicle::NoMinorGun::NextUp
    } else {
        vehicle::NoMinorGun::NoEffect
    })
}

fn build_shooting(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = ShootingParams::read(p)?;
    let firer = p.shot.firer()?;
    firer.check()?;
    let cell = firer.row.cells[p.shot.target.armour.column()];
    let area = p.shot.weapon.weapon_area.as_str();
    let others_full = p.others_under_template as u8;
    let others_partly = p.others_partly_under as u8;
    if area == "none" && others_full + others_partly > 0 {
        let field = if others_full > 0 {
            crate::param_name!(ShootingParams.others_under_template)
        } else {
            crate::param_name!(ShootingParams.others_partly_under)
        };
        return Err(ParamError::new(
            field,
            "the weapon covers no area (weapon_area = \"none\"): only the target can be hit",
        ));
    }
    let target = p.toughness.toughness();
    let mut t = target;
    t.hero = false;
    let modifier = p.shot.modifiers(p.target_vehicle.value).total();
    // "If their to hit is <8 then deduct 1 otherwise deduct 2 from their
    // to hit roll. If armed with Heavy weapons they may not fire."
    let assaulted = p.assaulted_before_turn;
    if assaulted && firer.heavy {
        return Err(ParamError::new(
            crate::param_name!(ShootingParams.assaulted_before_turn),
            "\"If armed with Heavy weapons they may not fire\" (a heavy weapon: every 2-AP row, the vehicle chaingun, the Necron Destroyer gun)",
        ));
    }
    let assault = |value: Option<u8>| match value {
        Some(v) if assaulted => {
            if v < 8 {
                -1
            } else {
                -2
            }
        }
        _ => 0,
    };
    let double = p.target_scarab_swarm && area != "none";
    let shooting = shooting::Shooting {
        firer,
        target_value: cell.target,
        others_value: cell.others,
        lock_on: cell.lock_on,
        modifier: modifier + assault(cell.target),
        others_modifier: modifier + assault(cell.others),
        target_double_hits: double,
        target,
        others_full,
        others_partly,
        partly: if area == "template" {
            shooting::Cover::PartlyTemplate
        } else {
            shooting::Cover::PartlyBlast
        },
        others: t,
        target_wounded: p.target_wounded,
        vehicle: p.vehicle_target(v)?,
        one_roll: others_full + others_partly > 0 && blast_once(v)?,
    };
    Ok(Box::new(crate::engine::stages::FacesModel::new(
        shooting.into_rule(),
    )))
}

crate::param_struct! {
    /// Parameters of the effect-of-hit scenario.
    pub struct EffectParams {
        hits: i64 = int(1, 10)
            .required()
            .about("hits that penetrated")
            .seed(EFFECT),
        target_wounded: bool = flag()
            .about("the figure is already wounded")
            .seed(EFFECT),
        toughness: ToughnessParams = prefixed("target_"),
    }
}

fn build_effect(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = EffectParams::read(p)?;
    Ok(Box::new(StepModel::new(hits::EffectRule::new(
        p.hits as u32,
        p.target_wounded,
        p.toughness.toughness(),
    ))))
}

const VEHICLE_TABLE: &str = "Vehicle Damage Table 1D10";

crate::param_struct! {
    /// Parameters of the vehicle damage scenario.
    pub struct VehicleParams {
        vehicle: Opt<String> = preset("vehicle", "")
            .about("a vehicle of the characteristics table, or custom")
            .seed("Vehicle characteristics table"),
        hits: i64 = int(1, 20)
            .required()
            .about("penetrating hits, each a roll on the table")
            .seed(VEHICLE_TABLE),
        minor_guns: i64 = int(0, 4)
            .required()
            .about("guns besides the biggest (a Chimera's heavy bolter: 1)")
            .seed("Vehicle characteristics table"),
        passengers: i64 = int(0, 12)
            .default("0")
            .about("common troopers aboard (an APC carries up to 12)")
            .seed("HUMAN SPECIAL RULES"),
    }
}

fn build_vehicle(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = VehicleParams::read(p)?;
    // "All passengers (if APC) roll on "effect of hit chart"";
    // "Chimeras or most other APC's can carry 12 human sized passengers":
    // a walker carries none
    if p.passengers > 0 && p.vehicle.value.as_deref() == Some("sentinel") {
        return Err(ParamError::new(
            crate::param_name!(VehicleParams.passengers),
            "a Sentinel is a walker, not an APC: it carries no passengers (\"All passengers (if APC)\"; \"Chimeras or most other APC's can carry 12 human sized passengers\")",
        ));
    }
    let d = vehicle::VehicleDamage {
        hits: p.hits as u32,
        minor_guns: p.minor_guns as u8,
        passengers: p.passengers as u8,
        no_minor_gun: no_minor_gun(v)?,
    };
    let size = vehicle::exact_size(d.hits, d.passengers);
    let model = crate::engine::stages::FacesModel::new(d.into_rule())
        .settling(vehicle::VehicleRule::settle_after)
        .by_laws(vehicle::VehicleRule::hit_starts);
    Ok(Box::new(if size > vehicle::EXACT_SIZE {
        model.without_exact(format!(
            "hits x (passengers + 1)^3 = {size} passes {}: the exact chain over the passengers' wounds would take over a second: Monte Carlo only",
            vehicle::EXACT_SIZE
        ))
    } else {
        model
    }))
}

const QUICK_DRAW: &str = "Quick Draw INITIATIVE TABLE (1D10)";

crate::param_struct! {
    /// Parameters of the quick draw scenario: characters A and B.
    pub struct QuickDrawParams {
        a_armour: Armour = choice(Armour::WORDS)
            .required()
            .about("A's armour: std +4, storm +3, power (or Chimera, Sentinel) +2, tank +1")
            .seed(QUICK_DRAW),
        a_weapon: String = choice(WEAPON_CLASSES)
            .default("rifle")
            .about("A's weapon: hand gun +2, rifle 0, heavy -2")
            .seed(QUICK_DRAW),
        a_fast_draw: bool = flag()
            .about("A has Fast Draw: +4")
            .seed(QUICK_DRAW),
        a_ahead_of_turn: bool = flag()
            .about("A returns fire ahead of turn: -3")
            .seed("SHOOT"),
        b_armour: Armour = choice(Armour::WORDS)
            .required()
            .about("B's armour: std +4, storm +3, power (or Chimera, Sentinel) +2, tank +1")
            .seed(QUICK_DRAW),
        b_weapon: String = choice(WEAPON_CLASSES)
            .default("rifle")
            .about("B's weapon: hand gun +2, rifle 0, heavy -2")
            .seed(QUICK_DRAW),
        b_fast_draw: bool = flag()
            .about("B has Fast Draw: +4")
            .seed(QUICK_DRAW),
        b_ahead_of_turn: bool = flag()
            .about("B returns fire ahead of turn: -3")
            .seed("SHOOT"),
    }
}

/// A character drawing: `weapon` one of [`WEAPON_CLASSES`].
fn drawer(armour: Armour, weapon: &str, fast_draw: bool, ahead_of_turn: bool) -> hits::Drawer {
    hits::Drawer {
        armour,
        weapon: WEAPON_CLASSES
            .iter()
            .find(|w| **w == weapon)
            .copied()
            .unwrap_or("rifle"),
        fast_draw,
        ahead_of_turn,
    }
}

fn build_quick_draw(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = QuickDrawParams::read(p)?;
    let tie = if v.word("quick_draw_tie")?.as_deref() == Some("roll_again") {
        hits::Tie::RollAgain
    } else {
        hits::Tie::Simultaneous
    };
    Ok(Box::new(StepModel::new(hits::QuickDrawRule::new(
        drawer(p.a_armour, &p.a_weapon, p.a_fast_draw, p.a_ahead_of_turn),
        drawer(p.b_armour, &p.b_weapon, p.b_fast_draw, p.b_ahead_of_turn),
        tie,
    ))))
}

crate::param_struct! {
    /// Parameters of the hit allocation scenario.
    pub struct AllocationParams {
        attacks: i64 = int(1, 60)
            .required()
            .about("attacks into a squad with a Hero (one D6 each)")
            .seed("UNIT COHESION"),
    }
}

fn build_allocation(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = AllocationParams::read(p)?;
    Ok(Box::new(crate::engine::stages::FacesModel::new(
        hits::AllocationRule::new(p.attacks as u32),
    )))
}

const NECRON: &str = "NECRON SPECIAL RULES";

crate::param_struct! {
    /// Parameters of the Necron repair scenario.
    pub struct RepairParams {
        destroyed: i64 = int(1, 40)
            .required()
            .about("Necrons destroyed last turn")
            .seed(NECRON),
        destroyed_on_a_one: i64 = int(0, 40)
            .default("0")
            .about("of those, destroyed on a D20 roll of 1: no repair")
            .seed(NECRON),
        near_lord_or_tomb_spider: bool = flag()
            .about("within 12\" of a Tomb Spider or Necron Lord: 4+ instead of 5+")
            .seed(NECRON),
    }
}

fn build_repair(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = RepairParams::read(p)?;
    let destroyed = p.destroyed as u32;
    let on_a_one = p.destroyed_on_a_one as u32;
    if on_a_one > destroyed {
        return Err(ParamError::new(
            crate::param_name!(RepairParams.destroyed_on_a_one),
            format!("{on_a_one} destroyed on a 1 out of only {destroyed} destroyed"),
        ));
    }
    Ok(Box::new(StepModel::new(hits::RepairRule::new(
        destroyed,
        on_a_one,
        p.near_lord_or_tomb_spider,
    ))))
}

#[cfg(test)]
mod tests {
    use crate::systems::testing;

    /// The exact value of `metric` for the shooting scenario at `point`.
    fn shooting(point: &[(&str, &str)], metric: &str) -> f64 {
        testing::exact(&*testing::model(&super::RULES, "shooting", point), metric)
    }

    /// A parameter given is not the same as one left to its default
    /// where the rule says so: each refusal below needs the value given,
    /// and the same point with it left out builds.
    #[test]
    fn given_and_left_out_parameters_are_told_apart() {
        let refused = |scenario: &str, point: &[(&str, &str)], extra: (&str, &str)| {
            testing::model(&super::RULES, scenario, point);
            let with = [point, &[extra]].concat();
            testing::refused(&super::RULES, scenario, &with).field
        };
        // "all others must be used moving": 2 AP given to firing after
        // moving 2 of 3 is refused; left out, firing takes the 1 left
        let moved = [
            ("weapon", "bolt_rifle"),
            ("armour", "std"),
            ("range", "12"),
            ("moved_d6", "2"),
        ];
        assert_eq!(refused("shooting", &moved, ("firing_ap", "2")), "firing_ap");
        let figure = [("weapon", "bolt_rifle"), ("armour", "std"), ("range", "12")];
        assert_eq!(
            refused("shooting", &figure, ("target_minor_guns", "1")),
            "target_minor_guns"
        );
        let tank = [
            ("weapon", "plasma_pistol"),
            ("armour", "tank"),
            ("range", "6"),
        ];
        assert_eq!(
            refused("shooting", &tank, ("target_vehicle", "false")),
            "target_vehicle"
        );
        // a row of one's own costing 2 AP is heavy unless said otherwise:
        // "No wounded human can fire or help fire a heavy weapon"
        let own_row = [
            ("weapon_row", "24 | 8 | 6 | 4 | 1 | 2 | jam"),
            ("armour", "std"),
            ("range", "12"),
            ("firer_wounded", "true"),
            ("weapon_heavy", "false"),
        ];
        assert_eq!(
            testing::refused(&super::RULES, "shooting", &own_row[..4]).field,
            "firer_wounded"
        );
        testing::model(&super::RULES, "shooting", &own_row);
        let figure = [
            ("attacker", "aliens_claws"),
            ("attacker_armour", "std"),
            ("defender", "power_weapon"),
            ("defender_armour", "power"),
        ];
        assert_eq!(
            refused("close_combat", &figure, ("defender_minor_guns", "1")),
            "defender_minor_guns"
        );
        let tank = [
            ("attacker", "anti_tank_grenades"),
            ("attacker_armour", "std"),
            ("defender_armour", "tank"),
        ];
        assert_eq!(
            refused("close_combat", &tank, ("defender_vehicle", "false")),
            "defender_vehicle"
        );
        assert_eq!(
            refused("close_combat", &tank, ("defender_attacks", "1")),
            "defender_attacks"
        );
        // a blast into a squad: how many stand under it must be said, 0
        // included
        let blast = [
            ("shooters", "2"),
            ("weapon", "grenade_launcher"),
            ("range", "20"),
            ("armour", "std"),
            ("troopers", "6"),
            ("others_under_template", "0"),
        ];
        testing::model(&super::RULES, "squad_under_fire", &blast);
        let e = testing::refused(&super::RULES, "squad_under_fire", &blast[..5]);
        assert_eq!(e.field, "others_under_template");
    }

    #[test]
    fn assaulted_before_their_turn_firers_lose_one_under_8_and_two_from_8() {
        // machine pistol 7 against standard armour: 7 - 1 (assault) - 2 (moving) = 4
        let base = [
            ("weapon", "laser_machine_pistol"),
            ("armour", "std"),
            ("range", "4"),
            ("target_cover", "moving"),
        ];
        let mut assaulted = base.to_vec();
        assaulted.push(("assaulted_before_turn", "true"));
        let hit = |v: f64| 1.0 - ((19.0 - v) / 20.0 * (20.0 - v) / 20.0 + 1.0 / 20.0);
        assert!((shooting(&base, "p_hit") - hit(5.0)).abs() < 1e-12);
        assert!((shooting(&assaulted, "p_hit") - hit(4.0)).abs() < 1e-12);
        // bolt rifle 8 at 10": two 1-AP shots at 8 - 2 = 6
        let bolt = [
            ("weapon", "bolt_rifle"),
            ("armour", "std"),
            ("range", "10"),
            ("assaulted_before_turn", "true"),
        ];
        assert!((shooting(&bolt, "p_hit") - hit(6.0)).abs() < 1e-12);
    }

    #[test]
    fn a_vehicle_target_rolls_on_the_vehicle_damage_table() {
        // melta 9 against tank armour, +2 for a tank: 11 or less, one 2-AP
        // shot; a 9 or 10 on the D10 wrecks it
        let point = [
            ("weapon", "melta_gun"),
            ("armour", "tank"),
            ("range", "6"),
            ("target_size", "tank"),
            ("target_vehicle", "true"),
        ];
        assert!((shooting(&point, "p_hit") - 11.0 / 20.0).abs() < 1e-12);
        assert!((shooting(&point, "p_vehicle_wrecked") - 11.0 / 20.0 * 0.2).abs() < 1e-12);
        assert!((shooting(&point, "p_vehicle_immobilised") - 11.0 / 20.0 * 0.4).abs() < 1e-12);
    }

    #[test]
    fn a_scarab_swarm_takes_two_hits_from_an_area_weapon() {
        // heavy bolter 6 against storm armour: one 2-AP shot; the swarm is a
        // Hero: dead on a 6 on either effect die, or on two wounds
        let point = [
            ("weapon", "heavy_bolter"),
            ("armour", "storm"),
            ("range", "10"),
            ("target_kind", "hero"),
            ("target_scarab_swarm", "true"),
        ];
        let dead = 6.0 / 20.0 * (11.0 / 36.0 + 4.0 / 36.0);
        assert!((shooting(&point, "p_dead") - dead).abs() < 1e-12);
        assert!((shooting(&point, "mean_hits") - 2.0 * 6.0 / 20.0).abs() < 1e-12);
    }
}
