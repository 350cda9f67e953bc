//! The `ranged` scenario: one ranged attack by range and fire mode. Its
//! declaration, parameters ([`RangedParams`], read into a [`Shot`]) and
//! builder. A child of `ranged.rs` rather than inside it: the ranged rule
//! is over 1,100 lines already; so `dice/scenario.rs` beside `dice.rs` and
//! `close/scenario.rs` in `close/`.

use super::{FireMode, RangedModel, RangedRule, Shot, Weapon, metric_catalog, wound_by};
use crate::systems::krygothic::dice::{critical, seven_plus};
use crate::systems::{Model, Opt, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `ranged` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const RANGED_SCENARIO: Scenario = Scenario {
    name: "ranged",
    about: "one ranged attack: to hit, keep up to K, wound, criticals, by range and fire mode",
    seed_section: "Chapter 5: Ranged Weapons; Roll to hit; Roll to wound; Choose Attack Type; Suppressive fire; Model direction; Chapter 4: Critical passes and fails",
    params: RangedParams::decls,
    metrics: metric_catalog,
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
    Ok(Box::new(RangedModel::new(
        RangedRule::new(shot).with_best_mode(),
    )))
}
