//! The `volley` and `turns_to_kill` scenarios: many shooters at one target
//! whose condition carries from shot to shot ("If a Warrior who is Down
//! suffers additional Wounds then roll on the Injury Table again"), then,
//! turn after turn, the Recovery Phase between volleys until the target is
//! taken out.
//!
//! Each attacker is the `shooting` scenario's shooter, read by the same
//! code ([`shooting_of`]) from the target's parameters with its own over
//! them, so a volley of one attacker is that scenario's attack step for
//! step; the volley chains the attackers' steps on one [`ShotState`].

use super::scenario::{ShootingParams, shooting_of};
use super::{Shooting, ShotState, Status};
use crate::dice::{MetricSink, Roller};
use crate::engine::{
    ForwardTurns, Mechanic, MetricDecl, MetricList, RepeatModel, Repeated, StepModel, TurnCounted,
};
use crate::systems::attackers::{self, Attacker};
use crate::systems::gce::warrior::Condition;
use crate::systems::gce::weapon::WeaponParams;
use crate::systems::{ParamDecl, ParamError, ParamGroup, Params, Refusal, Scenario};

mod best;

/// The seed sections a volley follows.
const SEED: &str = "Shooting, Steps 1-6; Shooting A Warrior Who Is Down; Injuries; Recovery Phase";

/// What each attacker sets besides its weapon: how well and how it fires,
/// from where, and the hit modifiers that are the shooter's own.
const EACH: &[&str] = &[
    "bs",
    "user_strength",
    "fire_mode",
    "sf_fired",
    "range",
    "coverage",
    "overwatch",
    "firer_vehicle_moved_fast",
    "extra_hit_modifier",
];

/// Parameters of the single shot a volley leaves out: the exploding
/// weapon's hit on its firer (a volley asks about the target).
const LEFT_OUT: &[&str] = &["firer_toughness", "firer_save"];

/// The single shot's parameter a volley lists after the attackers' and
/// the target's (the same declaration: [`target_starts_decl`]).
const TARGET_STARTS: &str = "target_starts";

/// `shooting`'s `target_starts`, the same for a volley: the same values
/// and meaning, read by the same code ([`shooting_of`]).
fn target_starts_decl() -> ParamDecl {
    ShootingParams::decls()
        .into_iter()
        .find(|d| d.name == TARGET_STARTS)
        .expect("shooting declares target_starts")
}

/// The `shooting` scenario's parameters split between each attacker and
/// the target (`cover`, the victim's profile, the escape from Pinning).
fn split() -> (Vec<ParamDecl>, Vec<ParamDecl>) {
    let weapon: Vec<String> = WeaponParams::decls().into_iter().map(|d| d.name).collect();
    let mut each: Vec<&str> = weapon.iter().map(String::as_str).collect();
    each.extend(EACH);
    let all: Vec<ParamDecl> = ShootingParams::decls()
        .into_iter()
        .filter(|d| !LEFT_OUT.contains(&d.name.as_str()) && d.name != TARGET_STARTS)
        .collect();
    attackers::split(all, &each)
}

/// The `volley` scenario's parameters: the attackers' and the target's,
/// how the target starts, and the order they fire in.
fn volley_params() -> Vec<ParamDecl> {
    let mut decls = shared_params();
    decls.push(
        ParamDecl::choice("order", &["listed", "best"])
            .default("listed")
            .about("the order the attackers fire in: as listed, or the best, each next shooter chosen after seeing what the last one did, to take the target out (best_for)")
            .seed("Shooting"),
    );
    decls.push(
        ParamDecl::choice("best_for", &["out_of_action", "down_or_out"])
            .about("what the best order aims at: Out of Action (when left out), or Down or Out of Action")
            .seed("Injuries")
            .needs("order", "best"),
    );
    decls
}

/// The parameters `volley` and `turns_to_kill` share: the attackers', the
/// target's and how the target starts.
fn shared_params() -> Vec<ParamDecl> {
    let (each, target) = split();
    let mut decls = attackers::volley_decls(each, target);
    decls.push(target_starts_decl());
    decls
}

/// The `turns_to_kill` scenario's parameters: a volley's, with when to stop.
fn turns_params() -> Vec<ParamDecl> {
    let mut decls = shared_params();
    decls.push(
        ParamDecl::choice("until", &["out_of_action", "down_or_out"])
            .default("out_of_action")
            .about("what takes the target out: Out of Action, or Down or Out of Action")
            .seed("Injuries"),
    );
    decls.push(
        ParamDecl::int("turns", 1, 30)
            .default("8")
            .about("turns played at most: the curve's length")
            .seed("Recovery Phase"),
    );
    decls
}

/// The test point both scenarios share: five Boyz with Shootas and a Nob
/// with a Kannon at a Nob (T4, W1, 6+ save) 8" away. The seed gives the
/// Kannon's bands only; its Strength 8, save modifier -3, D3 Damage and
/// 4+ Ammo Roll are this point's own.
const BOYZ_AND_NOB: &[(&str, &str)] = &[
    ("attackers", "boyz,nob"),
    ("boyz.count", "5"),
    ("boyz.weapon", "shoota"),
    ("boyz.bs", "3"),
    ("boyz.range", "8"),
    ("nob.weapon", "kannon"),
    ("nob.short_hit", "0"),
    ("nob.strength", "8"),
    ("nob.save_mod", "-3"),
    ("nob.damage", "D3"),
    ("nob.ammo", "4"),
    ("nob.bs", "4"),
    ("nob.range", "8"),
    ("toughness", "4"),
    ("wounds", "1"),
    ("save", "6"),
    ("target_ws", "4"),
    ("target_bs", "4"),
];

/// [`BOYZ_AND_NOB`] at a W3 Nob, fired in the best order: the Kannon's
/// D3 Damage takes more of his Wounds than a Shoota's one, so the order
/// matters.
const BEST_ORDER: &[(&str, &str)] = &[
    ("attackers", "boyz,nob"),
    ("boyz.count", "3"),
    ("boyz.weapon", "shoota"),
    ("boyz.bs", "3"),
    ("boyz.range", "8"),
    ("nob.weapon", "kannon"),
    ("nob.short_hit", "0"),
    ("nob.strength", "8"),
    ("nob.save_mod", "-3"),
    ("nob.damage", "D3"),
    ("nob.ammo", "4"),
    ("nob.bs", "4"),
    ("nob.range", "8"),
    ("toughness", "4"),
    ("wounds", "3"),
    ("save", "6"),
    ("target_ws", "4"),
    ("target_bs", "4"),
    ("order", "best"),
];

/// The `volley` scenario.
pub const VOLLEY_SCENARIO: Scenario = Scenario {
    name: "volley",
    about: "many shooters, one target, one turn: the target's condition carries from shot to shot",
    seed_section: SEED,
    params: volley_params,
    metrics: volley_metrics,
    build: |p, v| {
        let volley = volley(p, v)?;
        let aim = p.word("best_for")?;
        if p.need_word("order")? == "listed" {
            if aim.is_some() {
                return Err(ParamError::new(
                    "best_for",
                    "best_for says what order = \"best\" aims at: set order = \"best\", or leave best_for out",
                ));
            }
            return Ok(Box::new(StepModel::new(VolleyRule::new(volley))));
        }
        let aim = match aim.as_deref() {
            Some("down_or_out") => Status::Down,
            _ => Status::OutOfAction,
        };
        Ok(Box::new(StepModel::new(best::BestRule::new(volley, aim)?)))
    },
    variants: &["overwatch"],
    test_points: &[
        BOYZ_AND_NOB,
        &[
            ("attackers", "gunner"),
            ("gunner.weapon", "eavy_shoota"),
            ("gunner.long_range", "18"),
            ("gunner.short_hit", "0"),
            ("gunner.long_hit", "0"),
            ("gunner.strength", "4"),
            ("gunner.damage", "D3"),
            ("gunner.ammo", "auto"),
            ("gunner.fire_mode", "full_auto"),
            ("gunner.bs", "2"),
            ("gunner.range", "18"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "4"),
            ("target_ws", "1"),
            ("target_bs", "1"),
            ("friend_within_2in", "true"),
            ("target_initiative", "3"),
        ],
        BEST_ORDER,
        // a target already flesh-wounded: one Wound left
        &[
            ("attackers", "boyz"),
            ("boyz.count", "2"),
            ("boyz.weapon", "shoota"),
            ("boyz.bs", "3"),
            ("boyz.range", "8"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "5"),
            ("target_ws", "3"),
            ("target_bs", "3"),
            ("target_starts", "flesh_wounded"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "an attacker's count of 0",
            point: 0,
            set: &[("boyz.count", "0")],
            unset: &[],
            field: "boyz.count",
            words: &["must be from 1 to 20"],
        },
        Refusal {
            what: "the target's Toughness on an attacker",
            point: 0,
            set: &[("nob.toughness", "4")],
            unset: &[],
            field: "nob.toughness",
            words: &["the target's"],
        },
        Refusal {
            what: "what the best order aims at, with the order as listed",
            point: 0,
            set: &[("best_for", "down_or_out")],
            unset: &[],
            field: "best_for",
            words: &["order = \"best\""],
        },
        Refusal {
            what: "a WS 1, BS 1 target starting flesh-wounded",
            point: 1,
            set: &[("target_starts", "flesh_wounded")],
            unset: &[],
            field: "target_starts",
            words: &["cannot start flesh-wounded"],
        },
        Refusal {
            what: "an attacker without a weapon",
            point: 0,
            set: &[],
            unset: &[
                "nob.weapon",
                "nob.strength",
                "nob.save_mod",
                "nob.damage",
                "nob.ammo",
            ],
            field: "nob.strength",
            words: &["nob.ammo", "nob.damage"],
        },
    ],
    naive: crate::systems::gce::naive::VOLLEY,
};

/// The `turns_to_kill` scenario.
pub const TURNS_TO_KILL_SCENARIO: Scenario = Scenario {
    name: "turns_to_kill",
    about: "a volley every turn, the Recovery Phase between, until the target is taken out",
    seed_section: SEED,
    params: turns_params,
    metrics: turns_metrics,
    build: |p, v| {
        let until = match p.need_word("until")?.as_str() {
            "down_or_out" => Status::Down,
            _ => Status::OutOfAction,
        };
        let turns = p.need_int("turns")? as u8;
        let volley = volley(p, v)?;
        if volley.starts.status >= until {
            return Err(ParamError::new(
                "target_starts",
                "the target starts taken out already (Down, and until = \"down_or_out\"): nothing is left to count",
            ));
        }
        no_fire_between_turns(&volley, p)?;
        Ok(Box::new(ForwardTurns(TurnsRule::model(
            volley, until, turns,
        ))))
    },
    variants: &["overwatch"],
    test_points: &[
        BOYZ_AND_NOB,
        &[
            ("attackers", "boyz"),
            ("boyz.count", "2"),
            ("boyz.weapon", "shoota"),
            ("boyz.bs", "3"),
            ("boyz.range", "8"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "5"),
            ("target_ws", "3"),
            ("target_bs", "3"),
            ("until", "down_or_out"),
            ("turns", "5"),
        ],
        // a target already Down: Recovery rolls from the first turn on
        &[
            ("attackers", "boyz"),
            ("boyz.weapon", "shoota"),
            ("boyz.bs", "3"),
            ("boyz.range", "8"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "5"),
            ("target_ws", "3"),
            ("target_bs", "3"),
            ("target_starts", "down"),
            ("turns", "4"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "a misspelt attacker",
            point: 0,
            set: &[("boys.bs", "3")],
            unset: &[],
            field: "boys.bs",
            words: &["did you mean 'boyz'"],
        },
        Refusal {
            what: "a target taken out before the first turn",
            point: 1,
            set: &[("target_starts", "down")],
            unset: &[],
            field: "target_starts",
            words: &["starts taken out already"],
        },
    ],
    naive: crate::systems::gce::naive::TURNS_TO_KILL,
};

/// A volley: each attacker's shooting attack, as many times as its count,
/// in the order listed, with the kind each shooter belongs to.
pub struct Volley {
    shooters: Vec<(usize, Shooting)>,
    /// How many shooters of each kind.
    counts: Vec<u8>,
    /// The target's condition before the first shot.
    starts: Condition,
}

/// The volley `p` describes.
fn volley(p: &Params, variants: &Params) -> Result<Volley, ParamError> {
    let reads = ShootingParams::decls();
    let list: Vec<Attacker> = attackers::attackers(p, &reads)?;
    let mut shooters = Vec::new();
    let mut counts = Vec::new();
    let mut most_shots = 0;
    for (kind, a) in list.iter().enumerate() {
        let shooting = shooting_of(&a.params, variants).map_err(|e| a.owns(e, p.decls()))?;
        most_shots += a.count * shooting.max_shots();
        // the volley counts its hits in a byte
        if most_shots > MAX_SHOTS {
            return Err(ParamError::new(
                format!("{}.count", a.name),
                format!(
                    "the volley could fire {most_shots} shots, more than the {MAX_SHOTS} one volley may: fewer attackers or Sustained Fire dice"
                ),
            ));
        }
        counts.push(a.count as u8);
        for _ in 0..a.count {
            shooters.push((kind, shooting.clone()));
        }
    }
    // how the target starts, read by the `shooting` scenario's own code
    // (every attacker reads the same target)
    let starts = shooters[0].1.target.starts;
    Ok(Volley {
        shooters,
        counts,
        starts,
    })
}

/// Most shots one volley may fire (its hits are counted in a byte).
const MAX_SHOTS: u32 = 250;

/// Turns to kill does not play "Warriors on Fire" between turns: a weapon
/// that can set the target alight is refused there, not run without it.
fn no_fire_between_turns(volley: &Volley, p: &Params) -> Result<(), ParamError> {
    let names = attackers::names(p)?;
    match volley
        .shooters
        .iter()
        .find(|(_, s)| s.weapon.catch_fire.is_some_and(|f| f > 0))
    {
        Some((kind, _)) => Err(ParamError::new(
            format!("{}.catch_fire", names[*kind]),
            "turns_to_kill does not yet play Warriors on Fire between turns: run this weapon in `volley` (one turn), or set catch_fire = 0",
        )),
        None => Ok(()),
    }
}

impl Volley {
    /// The state before the first shot: the target as he starts.
    fn start(&self) -> ShotState {
        let mut s = self.target().start();
        s.shots_left = 0;
        s.target = self.starts;
        s
    }

    /// Steps of one shooter's attack: its Sustained Fire dice, their jams'
    /// Ammo Rolls and each shot it may make (the `shooting` scenario's).
    fn attack_steps(shooting: &Shooting) -> usize {
        2 * shooting.full_auto_dice as usize + shooting.max_shots() as usize
    }

    /// `(shooter, its own step)` of each step of a volley.
    fn layout(&self) -> Vec<(usize, usize)> {
        self.shooters
            .iter()
            .enumerate()
            .flat_map(|(j, (_, s))| (0..Self::attack_steps(s)).map(move |i| (j, i)))
            .collect()
    }

    /// The shooters' target (every attacker reads the same).
    fn target(&self) -> &Shooting {
        &self.shooters[0].1
    }

    /// Shooter `j`'s own step `i` on `s`. A shooter starts with its own
    /// burst (one shot, or none until its Sustained Fire dice are rolled);
    /// one whose attack begins on a target already Out of Action ("Remove
    /// the Model from play") holds its fire, while a burst that takes the
    /// target out rolls its remaining shots ("Roll to Hit with each shot
    /// before working out any Wounds"), as the `shooting` scenario does.
    /// What no later step reads (wound rolls, Damage, a spent weapon) is
    /// cleared after each step, so equal targets are equal states.
    fn shoot<R: Roller>(&self, (j, i): (usize, usize), dice: &mut R, s: &mut ShotState) {
        Self::shoot_with(&self.shooters[j].1, i, dice, s);
    }

    /// Step `i` of `shooting`'s attack on `s` (see [`Volley::shoot`]).
    fn shoot_with<R: Roller>(shooting: &Shooting, i: usize, dice: &mut R, s: &mut ShotState) {
        if i == 0 {
            s.holds_fire = s.target.status == Status::OutOfAction;
            s.shots_left = if shooting.full_auto_dice == 0 { 1 } else { 0 };
            s.jams_left = 0;
        }
        if s.holds_fire {
            s.shots_left = 0;
            return;
        }
        shooting.step(i, dice, s);
        s.wounds = 0;
        s.unsaved = 0;
        s.damage = 0;
        s.exploded = false;
        s.firer_wounded = false;
    }
}

/// P(ends Down or Out of Action).
const P_DOWN_OR_OUT: MetricDecl = MetricDecl::probability(
    "p_down_or_out",
    "P(Down or out of action)",
    "P(ends Down or Out of Action)",
);

/// Every metric of a volley.
fn volley_metrics() -> Vec<MetricDecl> {
    vec![
        super::P_HIT,
        super::MEAN_HITS,
        super::P_PINNED,
        super::P_PINNED_THROUGH,
        super::P_FLESH_WOUND,
        super::P_DOWN,
        super::P_OUT_OF_ACTION,
        P_DOWN_OR_OUT,
        super::P_EVENTUALLY_OUT,
        super::P_CATCHES_FIRE,
        super::HITS,
    ]
}

/// A volley as steps: every shooter's attack, then the target's escape
/// from Pinning and its Recovery rolls if left alone.
pub struct VolleyRule {
    volley: Volley,
    layout: Vec<(usize, usize)>,
    list: MetricList,
    m: [crate::dice::Metric; 10],
    hits: Vec<crate::dice::Metric>,
}

impl VolleyRule {
    fn new(volley: Volley) -> Self {
        let layout = volley.layout();
        let mut list = MetricList::new();
        let decls = volley_metrics();
        let m = std::array::from_fn(|i| list.add(&decls[i]));
        let max_hits: u32 = volley.shooters.iter().map(|(_, s)| s.max_shots()).sum();
        let hits = list.family(&super::HITS, 0..=max_hits);
        VolleyRule {
            volley,
            layout,
            list,
            m,
            hits,
        }
    }
}

impl Mechanic for VolleyRule {
    type State = ShotState;

    fn start(&self) -> ShotState {
        self.volley.start()
    }

    fn steps(&self) -> usize {
        self.layout.len() + 2
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut ShotState) {
        match self.layout.get(i) {
            Some(&at) => {
                self.volley.shoot(at, dice, s);
                // a spent weapon is not the target's concern
                s.out_of_ammo = false;
            }
            None if i == self.layout.len() => self.volley.target().pinning_check(dice, s),
            None => self.volley.target().settle(dice, s),
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &ShotState, sink: &mut impl MetricSink) {
        self.record_shot(s, sink);
    }
}

impl VolleyRule {
    /// Records a finished volley's metrics (whatever order it fired in).
    fn record_shot(&self, s: &ShotState, sink: &mut impl MetricSink) {
        let status = s.target.status;
        let values = [
            (0, s.hits > 0),
            // Glossary, Pinned: "Hit but not Wounded or receives a Flesh
            // Wound": a target that went Down or Out of Action is not.
            (2, s.pinned && status < Status::Down),
            (3, s.pinned_through_turn),
            (4, status == Status::FleshWound),
            (5, status == Status::Down),
            (6, status == Status::OutOfAction),
            (7, status >= Status::Down),
            (8, s.eventually_out),
            (9, s.on_fire),
        ];
        for (i, v) in values {
            sink.record(self.m[i], u64::from(v));
        }
        sink.record(self.m[1], u64::from(s.hits));
        sink.record(self.hits[usize::from(s.hits)], 1);
    }
}

/// P(taken out on turn k).
const TURNS: MetricDecl = MetricDecl::probability(
    "turns={k}",
    "P(taken out on turn {k})",
    "P(taken out on exactly turn k), k = 1..turns",
);
/// P(taken out within k turns).
const TAKEN_OUT_BY: MetricDecl = MetricDecl::probability(
    "taken_out_by_turn={k}",
    "P(taken out by turn {k})",
    "P(taken out within k turns), k = 1..turns: the turns-to-kill curve",
);
/// P(not taken out within the turns played): `turns={k}`'s leftover, so
/// its tails and quantiles count a survivor as "more than the turns".
const TURNS_BEYOND: MetricDecl = MetricDecl::probability(
    "turns>{k}",
    "P(not taken out in {k} turns)",
    "P(not taken out within the turns played)",
);
/// P(every shooter out of ammo, the target not taken out).
const P_RUNS_DRY: MetricDecl = MetricDecl::probability(
    "p_runs_dry",
    "P(attackers out of ammo first)",
    "P(not taken out, with every attacker's weapon out of ammo)",
);
/// P(taken out within the turns played).
const P_TAKEN_OUT: MetricDecl = MetricDecl::probability(
    "p_taken_out",
    "P(taken out)",
    "P(taken out within the turns played)",
);

/// Every metric of turns to kill (besides the repeated rule's own).
fn turns_metrics() -> Vec<MetricDecl> {
    let mut m = vec![
        P_TAKEN_OUT,
        super::P_OUT_OF_ACTION,
        P_RUNS_DRY,
        TURNS,
        TURNS_BEYOND,
        TAKEN_OUT_BY,
    ];
    m.extend(crate::engine::repeat_model::round_metrics("turns_played"));
    m
}

/// Where turns to kill stands: the target's condition and this turn's
/// shots ([`ShotState`], kept to what later turns read), the turns played,
/// and how many of each kind of shooter have run out of ammo ("out of ammo
/// for the rest of the game"). The dry ones are a kind's first places, so
/// a shooter that runs dry this turn silences none still to fire.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TurnState {
    shot: ShotState,
    turn: u8,
    dry: [u8; attackers::MAX_ATTACKERS],
}

/// A volley every turn, the Recovery Phase after it, until the target is
/// taken out, every shooter is out of ammo, or the turns run out.
pub struct TurnsRule {
    volley: Volley,
    layout: Vec<(usize, usize)>,
    /// Each shooter's place among its kind.
    place: Vec<u8>,
    /// Down: Down or Out of Action takes it out; else Out of Action only.
    until: Status,
    turns: u8,
    list: MetricList,
    taken_out: crate::dice::Metric,
    out_of_action: crate::dice::Metric,
    runs_dry: crate::dice::Metric,
    on_turn: Vec<crate::dice::Metric>,
    beyond: crate::dice::Metric,
    by_turn: Vec<crate::dice::Metric>,
}

impl TurnsRule {
    /// The model: turns repeated (round counts shown up to `turns`).
    fn model(volley: Volley, until: Status, turns: u8) -> RepeatModel<TurnsRule> {
        let layout = volley.layout();
        let mut seen = vec![0u8; volley.counts.len()];
        let place = volley
            .shooters
            .iter()
            .map(|(kind, _)| {
                seen[*kind] += 1;
                seen[*kind] - 1
            })
            .collect();
        let mut list = MetricList::new();
        let taken_out = list.add(&P_TAKEN_OUT);
        let out_of_action = list.add(&super::P_OUT_OF_ACTION);
        let runs_dry = list.add(&P_RUNS_DRY);
        let on_turn = list.family(&TURNS, 1..=u32::from(turns));
        let beyond = list.add_k(&TURNS_BEYOND, turns);
        let by_turn = list.family(&TAKEN_OUT_BY, 1..=u32::from(turns));
        let rule = TurnsRule {
            volley,
            layout,
            place,
            until,
            turns,
            list,
            taken_out,
            out_of_action,
            runs_dry,
            on_turn,
            beyond,
            by_turn,
        };
        RepeatModel::new(rule, usize::from(turns))
    }

    fn taken_out(&self, s: &TurnState) -> bool {
        s.shot.target.status >= self.until
    }

    fn all_dry(&self, s: &TurnState) -> bool {
        self.volley
            .counts
            .iter()
            .zip(&s.dry)
            .all(|(count, dry)| dry >= count)
    }
}

impl Repeated for TurnsRule {
    type State = TurnState;

    const ROUND: &'static str = "turns_played";

    fn start(&self) -> TurnState {
        TurnState {
            shot: self.volley.start(),
            turn: 0,
            dry: [0; attackers::MAX_ATTACKERS],
        }
    }

    fn over(&self, s: &TurnState) -> bool {
        // with every weapon out of ammo, a Down target still rolls in each
        // Recovery Phase ("Warriors that are Down must roll on the Injury
        // Table") until he stands or goes Out of Action
        self.taken_out(s)
            || s.turn >= self.turns
            || (self.all_dry(s) && s.shot.target.status != Status::Down)
    }

    /// Every shooter's attack, then the Recovery Phase.
    fn sub_steps(&self) -> usize {
        self.layout.len() + 1
    }

    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut TurnState) {
        let Some(&(j, own)) = self.layout.get(i) else {
            // Recovery Phase: "Warriors that started their turn Pinned now
            // automatically recover"; "Warriors that are Down must roll on
            // the Injury Table". A target already taken out rolls nothing.
            s.shot.pinned = false;
            if !self.taken_out(s) {
                s.shot.target.recover(dice);
            }
            return;
        };
        let kind = self.volley.shooters[j].0;
        // "the weapon has run out of ammo" for the rest of the game
        if self.place[j] < s.dry[kind] || self.taken_out(s) {
            return;
        }
        self.volley.shoot((j, own), dice, &mut s.shot);
        if s.shot.out_of_ammo && own + 1 == Volley::attack_steps(&self.volley.shooters[j].1) {
            s.shot.out_of_ammo = false;
            s.dry[kind] += 1;
        }
        // what no later turn reads
        s.shot.hits = 0;
        s.shot.pinned = false;
        s.shot.on_fire = false;
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn end_round(&self, s: &mut TurnState) {
        s.shot.holds_fire = false;
        s.turn += 1;
    }

    fn record(&self, s: &TurnState, sink: &mut impl MetricSink) {
        let out = self.taken_out(s);
        sink.record(self.taken_out, u64::from(out));
        sink.record(
            self.out_of_action,
            u64::from(s.shot.target.status == Status::OutOfAction),
        );
        sink.record(self.runs_dry, u64::from(!out && self.all_dry(s)));
        let taken_on = out.then_some(usize::from(s.turn));
        attackers::record_turn_taken(sink, taken_on, &self.on_turn, &self.by_turn, self.beyond);
    }
}

/// Turns to kill is solved forward, turn by turn ([`ForwardTurns`]): no
/// sub-step reads the turn count.
impl TurnCounted for TurnsRule {
    fn turns(&self) -> usize {
        usize::from(self.turns)
    }

    fn law_key(&self, s: &TurnState) -> TurnState {
        TurnState {
            turn: 0,
            ..s.clone()
        }
    }

    fn on_turn_of(&self, after: &TurnState, from: &TurnState) -> TurnState {
        TurnState {
            turn: from.turn,
            ..after.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::systems::gce::tables::SEED;

    /// Every sentence of the seed the volley rules quote (in their doc
    /// comments and the GCE README's readings) is the seed's, word for
    /// word: what carries from shot to shot, a burst past Out of Action,
    /// Recovery between turns, ammo, and a target that starts hurt.
    #[test]
    fn the_quoted_rules_are_the_seeds() {
        crate::systems::seed_text::assert_quoted(
            SEED,
            &[
                "If a Warrior who is Down suffers additional Wounds then roll on the Injury Table again",
                "Roll to Hit with each shot before working out any Wounds",
                "Remove the Model from play",
                "Warriors that started their turn Pinned now automatically recover",
                "Warriors that are Down must roll on the Injury Table",
                "the weapon has run out of ammo",
                "-1 WS and -1 BS for the rest of the game",
                "treating the Warrior as if they regain a single Wound",
                "so long as both their WS and BS characteristics do not reach 0",
                "Hit but not Wounded or receives a Flesh Wound",
            ],
        );
    }
}
