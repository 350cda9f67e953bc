//! Kry-Gothic (`seeds/000_e9ab87dd866033e2.txt`): dice with targets of 7+
//! under both readings, keep dice and attribute checks; ranged combat;
//! close combat with its attack/defence choices solved as a zero-sum game;
//! pinning, fear and pure horror, action points, order combos and damaged
//! structure.

pub mod close;
pub mod dice;
pub mod fast;
pub mod fight;
pub mod game;
mod naive;
pub mod psych;
pub mod ranged;

use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::{MetricDecl, MetricList, Model, Opt, ParamError, Params, Refusal};
use crate::systems::{ParamGroup, PresetDecl, RuleSet, Scenario, VariantDef};
use dice::{Reading, critical, seven_plus};
use ranged::{FireMode, RangedRule, Shot, Weapon, wound_by};

/// The seed file.
pub const SEED: &str = "000_e9ab87dd866033e2.txt";

/// Kry-Gothic as the registry sees it.
pub static RULES: RuleSet = RuleSet {
    name: "krygothic",
    title: "Kry-Gothic",
    seed: SEED,
    readings: include_str!("README.md"),
    variants: VARIANTS,
    presets: PRESETS,
    scenarios: &[
        DICE_SCENARIO,
        RANGED_SCENARIO,
        close::CLOSE_COMBAT_SCENARIO,
        game::CLOSE_COMBAT_GAME_SCENARIO,
        fight::CLOSE_COMBAT_FIGHT_SCENARIO,
        psych::PINNING_SCENARIO,
        psych::FEAR_SCENARIO,
        psych::ACTION_POINTS_SCENARIO,
        psych::ORDER_COMBO_SCENARIO,
        psych::DAMAGED_STRUCTURE_SCENARIO,
    ],
};

/// The `dice` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const DICE_SCENARIO: Scenario = Scenario {
    name: "dice",
    about: "one die against a target (7+ under both readings), attribute checks, keep dice NkM",
    seed_section: "Chapter 1: Target numbers; Rolling 6's; Rolling for 7+ targets; The Keep dice; Rolling attribute checks",
    params: DiceParams::decls,
    metrics: || DICE_METRICS.to_vec(),
    build: build_dice,
    variants: &["seven_plus"],
    test_points: &[
        &[("check", "die"), ("target", "7")],
        &[("check", "die"), ("target", "11")],
        &[("check", "attribute"), ("dice", "3"), ("target", "8")],
        &[
            ("check", "keep"),
            ("dice", "4"),
            ("keep", "3"),
            ("target", "16"),
        ],
        &[
            ("check", "keep"),
            ("dice", "3"),
            ("keep", "3"),
            ("target", "12"),
            ("explode", "false"),
        ],
    ],
    refusals: &[Refusal {
        what: "keeping more dice than are rolled",
        point: 0,
        set: &[("check", "keep"), ("dice", "3"), ("keep", "4")],
        unset: &[],
        field: "keep",
        words: &["keeps 4 of 3 dice"],
    }],
    naive: crate::systems::krygothic::naive::DICE,
};

/// The `ranged` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const RANGED_SCENARIO: Scenario = Scenario {
    name: "ranged",
    about: "one ranged attack: to hit, keep up to K, wound, criticals, by range and fire mode",
    seed_section: "Chapter 5: Ranged Weapons; Roll to hit; Roll to wound; Choose Attack Type; Suppressive fire; Model direction; Chapter 4: Critical passes and fails",
    params: RangedParams::decls,
    metrics: ranged::metric_catalog,
    build: build_ranged,
    variants: &["seven_plus", "wound_target", "critical_pass"],
    test_points: &[
        &[
            ("weapon", "pistol"),
            ("firer_rc", "3"),
            ("range", "4"),
            ("target_body", "3"),
            ("target_armour", "3"),
            ("target_speed", "3"),
        ],
        &[
            ("weapon", "pistol"),
            ("firer_rc", "4"),
            ("range", "7"),
            ("target_body", "2"),
            ("target_speed", "3"),
            ("fire_mode", "snap"),
            ("flanking", "true"),
        ],
        &[
            ("weapon", "autocannon"),
            ("weapon_strength", "2"),
            ("weapon_suppressive", "true"),
            ("fire_mode", "suppressive"),
            ("firer", "average_joe"),
            ("target", "average_joe"),
            ("range", "10"),
            ("dark", "true"),
        ],
        &[
            ("weapon", "hand_flamer"),
            ("weapon_strength", "2"),
            ("firer_rc", "5"),
            ("range", "3"),
            ("target_body", "3"),
            ("target_armour", "4"),
            ("target_speed", "6"),
            ("fire_mode", "aimed"),
        ],
        &[
            ("weapon", "pistol"),
            ("firer_rc", "4"),
            ("range", "5"),
            ("target", "average_joe"),
            ("fire_mode", "snap"),
            ("ap_budget", "6"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "a weapon misspelt",
            point: 0,
            set: &[("weapon", "pistle")],
            unset: &[],
            field: "weapon",
            words: &["did you mean 'pistol'"],
        },
        Refusal {
            what: "the firer's armour without its Body",
            point: 0,
            set: &[("firer_armour", "2")],
            unset: &[],
            field: "firer_armour",
            words: &["firer_body"],
        },
    ],
    naive: crate::systems::krygothic::naive::RANGED,
};

/// The readings the text leaves open.
pub const VARIANTS: &[VariantDef] = &[
    VariantDef {
        name: "seven_plus",
        values: &["table", "additive"],
        about: "targets of 7+: 'table' = a 6, then the target less 4 on the re-roll (the seed's list: 7+ 3+, ..., 11+ 6, 6, 3+); 'additive' = a 6 re-rolled and added must reach the target (the worked examples: 8, 7 and 8 pass a 7)",
    },
    VariantDef {
        name: "wound_target",
        values: &["k_value", "strength"],
        about: "what reduces the wound target: 'k_value' = the number after the K (the worked examples: 3 + 3 - 2 for 3K2S1); 'strength' = the S value ('The weapon strength reduces the targets body score when rolling for wounds'), which flanking then raises",
    },
    VariantDef {
        name: "critical_pass",
        values: &["three_sixes", "one_die"],
        about: "'a score of 18 ... by rolling 6's': 'three_sixes' = three dice of the to-hit roll show a 6; 'one_die' = one die scores 18 by exploding (a 6, a 6, a 6)",
    },
    VariantDef {
        name: "deflect_break",
        values: &["on_six", "example"],
        about: "a deflecting ranged weapon that negated hits breaks: 'on_six' = \"roll a D6. On a 6 the weapon breaks\" (Step 4); 'example' = below 2 + the dice negated (Example #2: \"a roll of 4 (base 2+2) ... He rolls a 4 and is ok\", two dice removed)",
    },
    VariantDef {
        name: "counter_roll",
        values: &["plain", "dodge"],
        about: "a counter attack's \"Roll to dodge as normal, but do not take any of the attackers dice away\": 'plain' = Step 5's normal roll to avoid the hit, CC dice keeping up to Speed; 'dodge' = the Dodge defence's roll, Speed + 2 (\"Dodge: Add +2 to your speed stat\")",
    },
    VariantDef {
        name: "pinning_hit",
        values: &["rule", "example"],
        about: "the pinning test of a hit unit: 'rule' = target 5, +1 for every unit over the first that is also firing (\"two units firing give a target number of 6 instead of 5\"); 'example' = Example #1's two units at target 5, +1 for each unit after the second",
    },
    VariantDef {
        name: "horror_move",
        values: &["unhalved", "halved"],
        about: "pure horror's random 4\" move \"only applied to those who have a willpower attribute of 2 or less\": 'unhalved' = the unit's WILL attribute; 'halved' = the WILL halved for the test (WILL 5 or less)",
    },
];

/// The Average Joe's numbers (Mind 3 is left out: no rule here reads it).
const UNIT: &[(&str, &str)] = &[
    ("speed", "3"),
    ("strength", "2"),
    ("body", "2"),
    ("will", "3"),
    ("cc", "2"),
    ("rc", "2"),
];

/// Presets: only what the seed gives.
pub const PRESETS: &[PresetDecl] = &[
    PresetDecl {
        catalogue: "unit",
        name: "average_joe",
        sets: UNIT,
        source: "\"Troop type: Average Joe / Speed - 3 (X) / Strength - 2 / Body - 2 (X) / Mind - 3 / Willpower - 3 / CC - 2 / RC - 2\"",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "pistol",
        sets: &[
            ("aim", "3"),
            ("damage", "2"),
            ("strength", "1"),
            ("short_range", "2"),
            ("long_range", "6"),
        ],
        source: "\"Weapon Name - Pistol / Cost - 20 / Stats - 3K2S1 / SR - 2 inches or under / MR - See definition / LR - 6 inches or over\"",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "autocannon",
        sets: &[("aim", "6"), ("damage", "2")],
        source: "\"a Autocannon which is 6K2 is going to be spraying bullets everywhere\" (no S, SR or LR given)",
    },
    PresetDecl {
        catalogue: "weapon",
        name: "hand_flamer",
        sets: &[("aim", "1"), ("damage", "5")],
        source: "\"A hand flamer on the other hand, which is 1k5\" (no S, SR or LR given)",
    },
    PresetDecl {
        catalogue: "cc_weapon",
        name: "axe",
        sets: &[("cc", "-1"), ("str", "2"), ("armour_piercing", "true")],
        source: "\"Weapon: Axe / Cost: 10 / Stats: -1cc/+2str / Weapon effects: Armor piercing\"",
    },
    PresetDecl {
        catalogue: "cc_weapon",
        name: "knife",
        sets: &[("cc", "2"), ("str", "-1")],
        source: "\"a knife is +2cc/-1str to show it is quick but not strong\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "ralim",
        sets: &[("tactics", "15")],
        source: "\"Ralim, Protarian >>> 15\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "protarian",
        sets: &[("tactics", "15")],
        source: "\"Ralim, Protarian >>> 15\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "renegades",
        sets: &[("tactics", "13")],
        source: "\"Renegades >>> 13\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "wraith",
        sets: &[("tactics", "13")],
        source: "\"Wraith >>> 13\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "slaves",
        sets: &[("tactics", "12")],
        source: "\"Slaves >>> 12\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "the_hive",
        sets: &[("tactics", "10")],
        source: "\"The Hive >>> 10\"",
    },
    PresetDecl {
        catalogue: "team",
        name: "the_forgotten",
        sets: &[("tactics", "10")],
        source: "\"The Forgotten >>> 10\"",
    },
];

const DICE: &str = "Chapter 1: Dice and their use";

crate::param_struct! {
    /// Parameters of the dice scenario.
    pub struct DiceParams {
        check: String = choice(&["die", "attribute", "keep"])
            .default("die")
            .about("die: one D6 against the target; attribute: the highest of `dice` D6; keep: roll `dice`, keep the best `keep`, sum")
            .seed(DICE),
        dice: i64 = int(0, 30)
            .default("1")
            .about("dice rolled (the attribute's number for a check)")
            .seed("Rolling attribute checks; The Keep dice"),
        keep: Opt<i64> = int(1, 30)
            .about("keep: dice kept (the number after the K); required for keep")
            .seed("The Keep dice"),
        target: Opt<i64> = int(-10, 60)
            .about("the target number (for keep: the total to reach); required except for keep")
            .seed("Target numbers; Rolling for 7+ targets"),
        explode: bool = flag()
            .default("true")
            .about("keep: sixes are re-rolled and added (a cumulative roll); the seed's 4K3 example keeps a 6 as 6")
            .seed("Rolling 6's; When a roll is not a target number"),
    }
}

const DICE_METRICS: [MetricDecl; 2] = [
    MetricDecl::probability(
        "p_pass",
        "P(pass)",
        "P(the target is met; for keep: the kept total reaches it)",
    ),
    MetricDecl::mean(
        "mean_total",
        "mean total",
        "keep: expected total of the kept dice",
    ),
];

enum DiceCheck {
    Die(i32),
    Attribute(u32, i32),
    Keep(u32, u32, Option<i32>, bool),
}

struct DiceRule {
    check: DiceCheck,
    reading: Reading,
    list: MetricList,
    pass: Option<crate::dice::Metric>,
    total: Option<crate::dice::Metric>,
}

impl Outcomes for DiceRule {
    type Out = (bool, i64);

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: crate::dice::Roller>(&self, d: &mut R) -> (bool, i64) {
        match self.check {
            DiceCheck::Die(t) => (dice::attribute_check(d, 1, t, self.reading), 0),
            DiceCheck::Attribute(n, t) => (dice::attribute_check(d, n, t, self.reading), 0),
            DiceCheck::Keep(n, k, t, e) => {
                let total = dice::keep_roll(d, n, k, e);
                (t.is_some_and(|t| total >= i64::from(t)), total)
            }
        }
    }

    fn law(&self) -> Vec<((bool, i64), f64)> {
        match self.check {
            DiceCheck::Die(t) => {
                let p = dice::p_meets(t, self.reading);
                vec![((true, 0), p), ((false, 0), 1.0 - p)]
            }
            DiceCheck::Attribute(n, t) => {
                let p = dice::p_attribute_check(n, t, self.reading);
                vec![((true, 0), p), ((false, 0), 1.0 - p)]
            }
            DiceCheck::Keep(n, k, t, e) => dice::keep_dist(n, k, e)
                .iter()
                .map(|(v, p)| ((t.is_some_and(|t| v >= i64::from(t)), v), p))
                .collect(),
        }
    }

    /// Pass or not, and the total (0 for the checks).
    fn slot(&self, o: &(bool, i64)) -> Option<usize> {
        usize::try_from(o.1)
            .ok()
            .map(|total| 2 * total + usize::from(o.0))
    }

    /// Up to a total of 4,095 (a larger total is hashed).
    fn slots(&self) -> usize {
        match self.check {
            DiceCheck::Keep(..) => 1 << 13,
            _ => 2,
        }
    }

    fn record(&self, o: &(bool, i64), sink: &mut impl crate::dice::MetricSink) {
        if let Some(m) = self.pass {
            sink.record(m, u64::from(o.0));
        }
        if let Some(m) = self.total {
            sink.record(m, o.1.max(0) as u64);
        }
    }
}

fn build_dice(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = DiceParams::read(p)?;
    let reading = seven_plus(v)?;
    let n = p.dice as u32;
    let check = match p.check.as_str() {
        "keep" => {
            let k = p.keep.need()? as u32;
            if k > n {
                return Err(ParamError::new(
                    p.keep.name(),
                    format!("keeps {k} of {n} dice: keep at most the dice rolled"),
                ));
            }
            let t = p.target.value.map(|t| t as i32);
            DiceCheck::Keep(n, k, t, p.explode)
        }
        "attribute" => DiceCheck::Attribute(n, p.target.need()? as i32),
        _ => DiceCheck::Die(p.target.need()? as i32),
    };
    let mut list = MetricList::new();
    let has_target = !matches!(check, DiceCheck::Keep(_, _, None, _));
    let pass = has_target.then(|| list.add(&DICE_METRICS[0]));
    let total = matches!(check, DiceCheck::Keep(..)).then(|| list.add(&DICE_METRICS[1]));
    Ok(Box::new(OutcomeModel::new(DiceRule {
        check,
        reading,
        list,
        pass,
        total,
    })))
}

const RC: &str = "Chapter 5: Roll to hit";

crate::param_struct! {
    /// Parameters of the ranged scenario: the firer, its weapon, the
    /// range and fire mode, the target and what modifies the roll.
    pub struct RangedParams {
        firer: Opt<String> = preset("unit", "firer_")
            .about("the firer's stat line (a unit preset) or custom")
            .seed("Chapter 2: Characteristic Profiles"),
        firer_rc: i64 = int(0, 30)
            .required()
            .about("the firer's RC: dice rolled to hit")
            .seed(RC),
        firer_body: Opt<i64> = int(0, 30)
            .about("the firer's Body: a critical fail's damage rolls against it (own-wound metrics only when given)")
            .seed("Chapter 4: Critical passes and fails"),
        firer_armour: Opt<i64> = int(0, 30)
            .about("the firer's armour bonus (with firer_body; 0 when not given)")
            .seed("Chapter 4: Critical passes and fails")
            .needs_any("firer_body", "2"),
        weapon: Opt<String> = preset("weapon", "weapon_")
            .about("a weapon preset from the seed, or custom")
            .seed("Chapter 5: Ranged Weapons"),
        weapon_aim: i64 = int(1, 30)
            .required()
            .about("the number before the K: passing dice kept at most")
            .seed("Weapon Statistics (Stats)"),
        weapon_damage: i64 = int(0, 30)
            .required()
            .about("the number after the K: taken off the wound target")
            .seed("Weapon Statistics (Stats)"),
        weapon_strength: i64 = int(0, 30)
            .required()
            .about("the number after the S: wounds at most per attack")
            .seed("The S value"),
        weapon_short_range: Opt<f64> = real(0.0, 1000.0)
            .about("SR in inches: +2 RC at or under it (none when not given)")
            .seed("SR (Short Range)"),
        weapon_long_range: Opt<f64> = real(0.0, 1000.0)
            .about("LR in inches: -1Kx and +1 to hit at it, and again per inch over (none when not given)")
            .seed("LR (Long Range)"),
        weapon_suppressive: bool = flag()
            .about("the weapon is capable of suppressive fire")
            .seed("Suppressive fire"),
        range: f64 = real(0.0, 1000.0)
            .required()
            .about("distance to the target in inches")
            .seed("SR (Short Range); LR (Long Range)"),
        fire_mode: String = choice(&["standard", "snap", "aimed", "suppressive"])
            .default("standard")
            .about("the fire mode; snap: -2 RC and two attacks; aimed: +2 RC (+2 AP); suppressive: +2 RC, wounds only on a critical pass")
            .seed("Choose Attack Type"),
        target: Opt<String> = preset("unit", "target_")
            .about("the target's stat line (a unit preset) or custom")
            .seed("Chapter 2: Characteristic Profiles"),
        target_body: i64 = int(0, 30)
            .required()
            .about("the target's Body")
            .seed("Roll to wound"),
        target_armour: i64 = int(0, 30)
            .default("0")
            .about("the target's armour bonus")
            .seed("Roll to wound"),
        target_speed: i64 = int(0, 30)
            .required()
            .about("the target's Speed: over 5 is +1 to hit")
            .seed(RC),
        cover: bool = flag()
            .about("the target's body is at least half hidden by cover: +2 to hit")
            .seed(RC),
        dark: bool = flag()
            .about("the scenario is in the dark: +2 to hit")
            .seed(RC),
        target_sprinting: bool = flag()
            .about("the target is sprinting: +1 to hit")
            .seed(RC),
        firer_pinned: bool = flag()
            .about("a pinned firer: +1 to hit")
            .seed("Chapter 6: Pinning"),
        flanking: bool = flag()
            .about("outside the target's 90 degree arc: +2 to the weapon's strength (the number that reduces the wound target)")
            .seed("Important strategy on choosing a target: Model direction"),
        armour_negated_from_behind: bool = flag()
            .about("the target's armour says it is negated on its blind side (with flanking)")
            .seed("Important strategy on choosing a target: Model direction"),
        fire_ap: i64 = int(1, 20)
            .default("2")
            .about("AP to fire once (aimed shots 2 more)")
            .seed("General gameplay information (\"another 2 AP to fire\"); Choose Attack Type"),
        ap_budget: Opt<i64> = int(1, 60)
            .about("AP spent on this fire mode: as many shots as it pays for, all at the target (one shot when not given)")
            .seed("Choose Attack Type"),
    }
}

impl RangedParams {
    /// The ranged shot these parameters describe, under variants `v`.
    pub fn shot(&self, v: &Params) -> Result<Shot, ParamError> {
        let (reading, wound_by, critical) = (seven_plus(v)?, wound_by(v)?, critical(v)?);
        let weapon = Weapon {
            aim: self.weapon_aim as i32,
            damage: self.weapon_damage as i32,
            strength: self.weapon_strength as i32,
            short_range: self.weapon_short_range.value,
            long_range: self.weapon_long_range.value,
            suppressive: self.weapon_suppressive,
        };
        let mode = FireMode::from_word(&self.fire_mode);
        if mode == FireMode::Suppressive && !weapon.suppressive {
            return Err(ParamError::new(
                crate::param_name!(RangedParams.fire_mode),
                "suppressive fire needs a weapon capable of it (set weapon_suppressive = true: \"All weapons that are capable of this mode will have a note\")",
            ));
        }
        Ok(Shot {
            rc: self.firer_rc as i32,
            weapon,
            range: self.range,
            mode,
            cover: self.cover,
            target_speed: self.target_speed as i32,
            dark: self.dark,
            sprinting: self.target_sprinting,
            firer_pinned: self.firer_pinned,
            body: self.target_body as i32,
            armour: self.target_armour as i32,
            flanking: self.flanking,
            armour_negated_from_behind: self.armour_negated_from_behind,
            reading,
            critical,
            wound_by,
            fire_ap: self.fire_ap as i32,
            ap_budget: self.ap_budget.value.map(|b| b as i32),
            firer: match (self.firer_body.value, self.firer_armour.value) {
                (Some(b), a) => Some((b as i32, a.unwrap_or(0) as i32)),
                (None, Some(_)) => {
                    return Err(ParamError::new(
                        self.firer_armour.name(),
                        "the firer's armour needs its Body: set firer_body (or firer = a unit preset)",
                    ));
                }
                (None, None) => None,
            },
        })
    }
}

/// Most to-hit dice kept over all the attacks of one model: wounds (at
/// most twice the dice kept) then fit a byte, and the exact law stays
/// small (a 120-attack budget of 1K weapons, or 12 attacks of 10K).
pub const MAX_KEPT_IN_ALL: i32 = 120;

fn build_ranged(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = RangedParams::read(p)?;
    let shot = p.shot(v)?;
    let r = shot.resolve();
    let kept = i32::from(r.attacks) * r.keep;
    if kept > MAX_KEPT_IN_ALL {
        let field = if shot.ap_budget.is_some() {
            p.ap_budget.name()
        } else {
            crate::param_name!(RangedParams.weapon_aim)
        };
        return Err(ParamError::new(
            field,
            format!(
                "{} attacks keeping up to {} dice each could keep {kept} dice, more than the {MAX_KEPT_IN_ALL} one model allows: spend fewer AP, or split the budget over several cells",
                r.attacks, r.keep
            ),
        ));
    }
    Ok(Box::new(ranged::RangedModel::new(
        RangedRule::new(shot).with_best_mode(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::seed_text;

    /// Presets and the Tactics Ratings quoted from the seed, read back out
    /// of the seed text.
    #[test]
    fn presets_are_the_seeds() {
        if !seed_text::available(SEED) {
            return;
        }
        let text = seed_text::seed(SEED);
        let flat: String = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" / ");
        for p in PRESETS {
            // each quoted fragment between the first pair of quotes
            let quoted = p.source.split('"').nth(1).expect("a quote");
            assert!(flat.contains(quoted), "{}: seed has '{quoted}'", p.name);
        }
        for (team, rating) in [
            ("Ralim, Protarian", 15),
            ("Renegades", 13),
            ("Wraith", 13),
            ("Slaves", 12),
            ("The Hive", 10),
            ("The Forgotten", 10),
        ] {
            assert!(text.contains(&format!("{team} >>> {rating}")), "{team}");
        }
    }

    fn build_err(scenario: &str, given: &[(&str, &str)]) -> ParamError {
        crate::systems::testing::refused(&RULES, scenario, given)
    }

    /// Bad input is refused naming the parameter.
    #[test]
    fn bad_input_is_named() {
        let e = build_err(
            "ranged",
            &[
                ("weapon", "autocannon"),
                ("firer_rc", "3"),
                ("range", "4"),
                ("target", "average_joe"),
            ],
        );
        assert_eq!(e.field, "weapon_strength");
        assert!(e.message.contains("invents none"), "{}", e.message);
        let e = build_err(
            "ranged",
            &[
                ("weapon", "pistol"),
                ("firer_rc", "3"),
                ("range", "4"),
                ("target", "average_joe"),
                ("fire_mode", "suppressive"),
            ],
        );
        assert_eq!(e.field, "fire_mode");
        let e = build_err(
            "ranged",
            &[
                ("weapon", "autocannon"),
                ("weapon_strength", "2"),
                ("firer_rc", "3"),
                ("range", "4"),
                ("target", "average_joe"),
                ("fire_mode", "snap"),
                ("ap_budget", "40"),
            ],
        );
        assert_eq!(e.field, "ap_budget");
        assert!(e.message.contains("more than the 120"), "{}", e.message);
        let e = build_err("dice", &[("check", "keep"), ("dice", "2"), ("keep", "3")]);
        assert_eq!(e.field, "keep");
        let e = build_err("dice", &[("check", "die")]);
        assert_eq!(e.field, "target");
        let joes = [("attacker", "average_joe"), ("defender", "average_joe")];
        let e = build_err("close_combat", &[joes[0], joes[1], ("attack", "weapon")]);
        assert_eq!(e.field, "attack");
        let e = build_err(
            "close_combat",
            &[joes[0], joes[1], ("attack", "kick"), ("defence", "parry")],
        );
        assert_eq!(e.field, "defence");
        let e = build_err(
            "close_combat",
            &[joes[0], joes[1], ("defence", "deflect"), ("attack", "kick")],
        );
        assert_eq!(e.field, "defence");
        let e = build_err(
            "close_combat",
            &[
                joes[0],
                joes[1],
                ("attack", "kick"),
                ("attacker_weapon_cc", "2"),
            ],
        );
        assert_eq!(e.field, "attacker_weapon_cc");
        let e = build_err(
            "close_combat",
            &[joes[0], joes[1], ("initiator", "true"), ("charged", "true")],
        );
        assert_eq!(e.field, "charged");
        let e = build_err("pinning", &[("will", "3"), ("shooterz", "2")]);
        assert!(
            e.message.contains("did you mean 'shooters'"),
            "{}",
            e.message
        );
        let e = build_err("action_points", &[("team", "orks")]);
        assert_eq!(e.field, "team");
    }
}
