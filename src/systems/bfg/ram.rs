//! The `ram` scenario: one ship rams another. Its parameters (the two
//! ships, by preset or stats, as their roles ask), and its builder: the
//! rule is [`Ram`] (in `mechanics.rs`, with hit-and-run and the hazards),
//! sampled by [`RamModel`] (`fast.rs`). One module per scenario, named
//! after it, as every BFG scenario but `boarding` (which shares
//! `boarding.rs` with its rule).

use super::fast::RamModel;
use super::mechanics::{RAM_METRICS, Ram};
use super::ships::{ShipParams, ShipRole, Who};
use super::tables::ram_test_dice;
use crate::systems::{Model, ParamError, ParamGroup, Params, Refusal, Scenario};

/// The `ram` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const RAM_SCENARIO: Scenario = Scenario {
    name: "ram",
    about: "one ship rams another: the Leadership test, damage dealt and taken",
    seed_section: "ALL AHEAD FULL – RAMMING SPEED!; RAMMING SUMMARY",
    params: RamParams::decls,
    metrics: || RAM_METRICS.to_vec(),
    build: build_ram,
    variants: &[],
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
    refusals: &[
        Refusal {
            what: "a ship preset misspelt",
            point: 0,
            set: &[("target", "unclen")],
            unset: &[],
            field: "target",
            words: &["did you mean 'unclean'"],
        },
        Refusal {
            what: "more damage left than any ship has",
            point: 0,
            set: &[("target_damage", "200")],
            unset: &[],
            field: "target_damage",
            words: &["from 0 to 100"],
        },
    ],
    naive: super::naive::RAM,
};

const RAMMING: &str = "ALL AHEAD FULL – RAMMING SPEED!";

/// The ship that rams: no side armour (it hits with its prow).
#[derive(Clone, Debug)]
struct Rammer;
/// The ship rammed.
#[derive(Clone, Debug)]
struct Rammed;

impl Who for Rammer {
    fn who() -> String {
        "the rammer".into()
    }
}
impl ShipRole for Rammer {
    const STATS: &'static [&'static str] = &["type", "starting_damage", "damage", "front_armour"];
    const SEED: &'static str = RAMMING;
}
impl Who for Rammed {
    fn who() -> String {
        "the rammed ship".into()
    }
}
impl ShipRole for Rammed {
    const STATS: &'static [&'static str] = &[
        "type",
        "starting_damage",
        "damage",
        "armour",
        "front_armour",
    ];
    const SEED: &'static str = RAMMING;
}

crate::param_struct! {
    /// Parameters of the ram scenario.
    struct RamParams {
        rammer: ShipParams<Rammer> = prefixed("rammer"),
        rammer_leadership: i64 = int(1, 12)
            .required()
            .about("the rammer's Leadership")
            .seed(RAMMING),
        target: ShipParams<Rammed> = prefixed("target"),
        head_on: bool = flag()
            .about("hitting head on: the target's front armour, and full return dice")
            .seed(RAMMING),
        target_is_defence: bool = flag()
            .about("the target is a defence: full return dice")
            .seed(RAMMING),
    }
}

fn build_ram(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = RamParams::read(p)?;
    let rammer = p.rammer.ship()?;
    let target = p.target.ship()?;
    let rk = rammer.kind.need(&rammer)?;
    let tk = target.kind.need(&target)?;
    let rs = rammer.starting.need(&rammer)?;
    let ts = target.starting.need(&target)?;
    let head_on = p.head_on;
    let defence = p.target_is_defence;
    let ram = Ram {
        test_dice: ram_test_dice(rk, tk),
        leadership: p.rammer_leadership as i32,
        rammer_starting: rs,
        rammer_remaining: rammer.remaining.need(&rammer)?,
        rammer_front_armour: rammer.front_armour.need(&rammer)?,
        target_armour: if head_on {
            target.front_armour.need(&target)?
        } else {
            target.armour.need(&target)?
        },
        target_starting: ts,
        target_remaining: target.remaining.need(&target)?,
        // "rolls a number of D6 equal to half its starting damage";
        // full when head on or a defence
        return_dice: if head_on || defence { ts } else { ts / 2 },
    };
    Ok(Box::new(RamModel::new(ram.into_rule())))
}
