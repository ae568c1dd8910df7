//! `cribpiquet.vector.VectorGame`: the Python face of [`crate::engine::vector::VectorGame`], one
//! class for every game.
//!
//! The games' core vectors are one enum, [`Engine`] (a variant per game of the games list),
//! matched once per call (not per game).
//! The outputs are the core's [`OutputBuffers`], handed to numpy once ([`columns_dict`]: no copy)
//! and rewritten in place by every call; Python sees read-only views of them in one [`Batch`].

use std::sync::{Mutex, TryLockError};

use numpy::{PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::arrays::columns_dict;
use super::convert::{bool_arg, describe, seed_from, IntArg};
use super::engine::PyGame;
use super::games::{each_game, per_game, AnyGame};
use crate::engine::vector::{Observation, OutputBuffers, Outputs, VectorGame as Core, VectorOptions};
use crate::engine::{Game, StateStack};
use crate::error::echo;

per_game! {
    /// The core vector of any game (one match per call, not per game).
    enum Engine of Core
}

/// Game `i` of a core vector as a new Python `State` of its game (its history replayed if the
/// vector keeps them).
fn state_object<G: PyGame>(py: Python<'_>, v: &Core<G>, i: usize) -> PyResult<Py<PyAny>> {
    let stack = match v.records_history() {
        true => StateStack::replay(v.game().new_initial_state(), v.history(i)?)?,
        false => StateStack::new(*v.state(i)?),
    };
    G::state_object(py, stack)
}

/// A core vector's players, action ids and tensor size (the `P`, `A` and `T` of the batch).
fn dims<G: Game>(v: &Core<G>) -> (usize, usize, usize) {
    (v.num_players(), G::NUM_DISTINCT_ACTIONS, v.tensor_size())
}

/// A Python array made read-only, with every array it is a view of, so that neither it nor any
/// view of it can be made writable (`setflags(write=True)` fails: the last base is Rust's memory,
/// no buffer numpy could write through). The vector alone writes them, through [`buffer_mut`].
fn read_only(array: Bound<'_, PyAny>) -> PyResult<Bound<'_, PyAny>> {
    let kwargs = PyDict::new(array.py());
    kwargs.set_item("write", false)?;
    let mut a = array.clone();
    while a.is_instance_of::<PyUntypedArray>() {
        a.call_method("setflags", (), Some(&kwargs))?;
        a = a.getattr("base")?;
    }
    Ok(array)
}

/// The memory of an output buffer, for the vector to write.
///
/// # Safety
/// The caller holds the vector's engine lock (one writer at a time), and no `&mut` to the same
/// buffer is alive. Python holds only read-only views of it (which cannot be made writable).
#[allow(clippy::mut_from_ref)] // the point: numpy holds the array, Rust alone writes it
unsafe fn buffer_mut<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &'a Bound<'_, numpy::PyArray<T, D>>,
) -> &'a mut [T] {
    let len = array.len();
    if len == 0 {
        return &mut [];
    }
    // SAFETY: the buffer is a C-contiguous array of `len` elements owned by Rust (a core
    // buffer handed over, never reshaped or resized since), kept alive by `array`.
    unsafe { std::slice::from_raw_parts_mut(array.data(), len) }
}

/// The outputs, described once: each `Batch` field (the core's column of that name) with its
/// array type and the core [`Outputs`] field it is. Makes the buffers (the core's, handed to numpy
/// once), the `Batch` class of read-only views of them, and the copies between them.
macro_rules! outputs {
    ($(#[$doc:meta])* $($field:ident: $array:ty => $out:ident),*) => {
        /// The arrays a vector writes into (rewritten by every call).
        struct Buffers {
            $($field: Py<$array>,)*
        }

        impl Buffers {
            /// The core's output buffers of `core` as numpy arrays, and a batch of views of them.
            fn new<G: Game>(py: Python<'_>, core: &Core<G>) -> PyResult<(Buffers, Batch)> {
                let columns = columns_dict(py, OutputBuffers::try_for_game(core)?)?;
                let column = |name| columns.get_item(name)?.ok_or_else(|| PyRuntimeError::new_err(name));
                let buffers = Buffers { $($field: read_only(column(stringify!($field))?)?.cast_into()?.unbind(),)* };
                let batch = Batch { $($field: read_only(buffers.$field.bind(py).call_method0("view")?)?.unbind(),)* };
                Ok((buffers, batch))
            }

            /// The buffers as the core's outputs.
            ///
            /// # Safety
            /// As [`buffer_mut`]'s, for every buffer.
            unsafe fn outputs<'a>(&'a self, py: Python<'a>) -> Outputs<'a> {
                // SAFETY: the caller's promise; each buffer is borrowed once.
                unsafe { Outputs { $($out: buffer_mut(self.$field.bind(py)),)* } }
            }
        }

        $(#[$doc])*
        #[pyclass(frozen, get_all, module = "cribpiquet.vector", name = "Batch")]
        pub struct Batch {
            $($field: Py<PyAny>,)*
        }

        #[pymethods]
        impl Batch {
            /// A batch of fresh, writable copies (they do not change with the vector).
            fn copy(&self, py: Python<'_>) -> PyResult<Batch> {
                let copy = |a: &Py<PyAny>| if a.is_none(py) { Ok(py.None()) } else { a.call_method0(py, "copy") };
                Ok(Batch { $($field: copy(&self.$field)?,)* })
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                let shape = |a: &Py<PyAny>| -> PyResult<String> {
                    let a = a.bind(py);
                    Ok(if a.is_none() { "None".into() } else { a.getattr("shape")?.repr()?.to_string() })
                };
                let fields = [$(format!("{}={}", stringify!($field), shape(&self.$field)?)),*];
                Ok(format!("Batch({})", fields.join(", ")))
            }
        }
    };
}

outputs! {
    /// What a :class:`VectorGame` call returns: one row per game (``N`` games, ``A`` action ids,
    /// ``P`` players, ``T`` the tensor size).
    ///
    /// * ``current_player`` (N,) int32: the player to move (``TERMINAL`` = -4 for a finished game
    ///   left as it is, with ``auto_reset=False``);
    /// * ``legal_mask`` (N, A) bool: the legal actions of the player to move;
    /// * ``rewards`` (N, P) float32: the points each player made in the call (the decision and the
    ///   chance events after it; partners share their side's). A new game's points before its first
    ///   decision (five-card cribbage's three for last) are the rewards of ``reset()``, or, after an
    ///   auto-reset, come with the new game's first step: a game's rewards add up to its scores;
    /// * ``terminated`` (N,) bool: the game ended in this call (with ``auto_reset`` it has already
    ///   restarted, and the other fields show the new game; without, it stays over and true);
    /// * ``returns`` (N, P) float32: the payoffs (``State.returns()``) of the games that
    ///   ``terminated``, else 0;
    /// * ``observation`` (N, T) float32: the chosen tensor of the player to move (zeros for a finished
    ///   game), or None with ``observation=None``.
    ///
    /// The arrays are **read-only views of buffers the vector reuses**: the next ``reset``/``step``
    /// overwrites them in place (no copy, no allocation per step). Keep a snapshot with
    /// :meth:`copy`.
    current_player: PyArray1<i32> => current_player,
    legal_mask: PyArray2<bool> => legal_mask,
    rewards: PyArray2<f32> => rewards,
    terminated: PyArray1<bool> => terminated,
    returns: PyArray2<f32> => returns,
    observation: PyArray2<f32> => tensor
}

/// ``n`` games of one cribbage or piquet ``Game`` stepped together in Rust, for reinforcement
/// learning (what EnvPool or pgx give other games).
///
/// ``VectorGame(game, n, *, seed=0, threads=None, observation="information_state",
/// auto_reset=True, record_history=False)``: ``game`` is a ``cribbage.Game`` or a
/// ``piquet.Game``; ``observation`` the tensor each row carries for the player to move
/// (``"information_state"``, ``"observation"`` or None for none); finished games restart when
/// ``auto_reset``; ``record_history`` keeps each game's actions since it began (see
/// :meth:`state`).
///
/// :meth:`reset` deals every game to its first decision and :meth:`step` applies one action per
/// game (``actions[i]`` for game ``i``), then samples the chance events (cut, deal, starter,
/// talon) up to the next decision, from one generator per game seeded by ``(seed, i)``, so the
/// games are the same whatever ``threads`` (``None``: every core). Both return a :class:`Batch`
/// (the same object each time: read-only views of reused buffers). The games run with the
/// interpreter detached, split across threads. An illegal action in any row raises
/// ``ValueError`` naming the row and the action, and changes no game. One thread at a time may
/// use a vector (another one gets ``RuntimeError``).
///
/// >>> from cribpiquet import cribbage
/// >>> from cribpiquet.vector import VectorGame
/// >>> v = VectorGame(cribbage.Game("six-card"), 4, seed=1, observation=None)
/// >>> b = v.reset()
/// >>> b.legal_mask.shape, b.current_player.tolist() == [v.state(i).current_player() for i in range(4)]
/// ((4, 1379), True)
/// >>> b = v.step(v.sample_legal())
/// >>> int(b.legal_mask.sum(axis=1).min()) > 0
/// True
#[pyclass(frozen, module = "cribpiquet.vector", name = "VectorGame")]
pub struct VectorGame {
    engine: Mutex<Engine>,
    /// The game (a ``cribbage.Game`` or ``piquet.Game``).
    #[pyo3(get)]
    game: Py<PyAny>,
    /// Number of games.
    #[pyo3(get)]
    n: usize,
    /// Players per game (the ``P`` of the batch).
    #[pyo3(get)]
    num_players: usize,
    /// Action ids per game (the ``A`` of the batch: ``game.num_distinct_actions()``).
    #[pyo3(get)]
    num_actions: usize,
    tensor_size: usize,
    observation: Observation,
    /// Do finished games restart?
    #[pyo3(get)]
    auto_reset: bool,
    /// Are the games' histories kept (see :meth:`state`)?
    #[pyo3(get)]
    record_history: bool,
    /// The threads asked for (None: every core).
    #[pyo3(get)]
    threads: Option<usize>,
    buffers: Buffers,
    batch: Py<Batch>,
}

/// The `observation` argument: a tensor name or None (kept as given, so that an omitted argument
/// and an explicit None differ).
pub(crate) struct ObservationArg(Result<Observation, PyErr>);

impl ObservationArg {
    fn default_tensor() -> ObservationArg {
        ObservationArg(Ok(Observation::InformationState))
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for ObservationArg {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<ObservationArg> {
        const NAMES: &str = "\"information_state\", \"observation\" or None";
        let Ok(text) = obj.cast::<PyString>() else {
            return Ok(ObservationArg(match obj.is_none() {
                true => Ok(Observation::None),
                false => Err(PyTypeError::new_err(format!("observation must be {NAMES}, got {}", describe(&obj)))),
            }));
        };
        Ok(ObservationArg(match super::convert::text(&text, "observation")? {
            "information_state" => Ok(Observation::InformationState),
            "observation" => Ok(Observation::Observation),
            other => Err(PyValueError::new_err(format!("observation must be {NAMES}, got {:?}", echo(other)))),
        }))
    }
}

/// The actions argument as a C-contiguous int64 array of `n` values.
fn actions_array<'py>(obj: &Bound<'py, PyAny>, n: usize) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let py = obj.py();
    let array = match obj.cast::<PyArray1<i64>>() {
        Ok(a) if a.is_c_contiguous() => a.clone(),
        _ => {
            let np = py.import("numpy")?;
            let wrong =
                || PyTypeError::new_err(format!("actions must be an int array of shape ({n},), got {}", describe(obj)));
            let a = np.call_method1("asarray", (obj,)).map_err(|_| wrong())?;
            let untyped = a.cast::<PyUntypedArray>().map_err(|_| wrong())?;
            if !matches!(untyped.dtype().kind(), b'i' | b'u') {
                return Err(PyTypeError::new_err(format!(
                    "actions must be integers, got dtype {}",
                    untyped.dtype().str().map(|s| s.to_string()).unwrap_or_default()
                )));
            }
            let shape = untyped.shape().iter().map(|s| s.to_string()).collect::<Vec<_>>();
            let shape = if shape.len() == 1 { format!("({},)", shape[0]) } else { format!("({})", shape.join(", ")) };
            np.call_method1("ascontiguousarray", (a, np.getattr("int64")?))?
                .cast_into::<PyArray1<i64>>()
                .map_err(|_| PyValueError::new_err(format!("actions must have shape ({n},), got {shape}")))?
        }
    };
    if array.len() != n {
        return Err(PyValueError::new_err(format!("actions must have shape ({n},), got ({},)", array.len())));
    }
    Ok(array)
}

fn busy<T>(e: TryLockError<T>) -> PyErr {
    match e {
        TryLockError::WouldBlock => {
            PyRuntimeError::new_err("this VectorGame is being used by another thread; use one vector per thread")
        }
        TryLockError::Poisoned(_) => PyRuntimeError::new_err("this VectorGame failed in another thread"),
    }
}

impl VectorGame {
    /// The vector of `engine`, whose Python `Game` is `game`, run as `options` say.
    fn build(game: &Bound<'_, PyAny>, engine: Engine, options: VectorOptions) -> PyResult<VectorGame> {
        let py = game.py();
        let (buffers, mut batch) = each_game!(Engine, &engine, v => Buffers::new(py, v))?;
        if options.observation == Observation::None {
            batch.observation = py.None();
        }
        let (num_players, num_actions, tensor_size) = each_game!(Engine, &engine, v => dims(v));
        Ok(VectorGame {
            n: each_game!(Engine, &engine, v => v.len()),
            engine: Mutex::new(engine),
            game: game.clone().unbind(),
            num_players,
            num_actions,
            tensor_size,
            observation: options.observation,
            auto_reset: options.auto_reset,
            record_history: options.record_history,
            threads: options.threads,
            buffers,
            batch: Py::new(py, batch)?,
        })
    }

    /// Run `f` on the engine and the output buffers with the interpreter detached.
    fn with_outputs(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Engine, &mut Outputs<'_>) -> crate::Result<()> + Send,
    ) -> PyResult<Py<Batch>> {
        let mut engine = self.engine.try_lock().map_err(busy)?;
        // SAFETY: the engine lock is held (above) for as long as the outputs live.
        let mut out = unsafe { self.buffers.outputs(py) };
        let engine: &mut Engine = &mut engine;
        py.detach(|| f(engine, &mut out))?;
        Ok(self.batch.clone_ref(py))
    }
}

#[pymethods]
impl VectorGame {
    #[new]
    #[pyo3(signature = (game, n, *, seed = None, threads = None, observation = ObservationArg::default_tensor(), auto_reset = None, record_history = None),
           text_signature = "(game, n, *, seed=0, threads=None, observation='information_state', auto_reset=True, record_history=False)")]
    fn new(
        game: &Bound<'_, PyAny>,
        n: IntArg,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<IntArg>,
        observation: ObservationArg,
        auto_reset: Option<&Bound<'_, PyAny>>,
        record_history: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<VectorGame> {
        let n = n.within("n", 1..(1 << 31))? as usize;
        let seed = seed.map_or(Ok(0), seed_from)?;
        let threads = threads.as_ref().map(|t| t.within("threads", 1..1025)).transpose()?.map(|t| t as usize);
        let observation = observation.0?;
        let auto_reset = auto_reset.map_or(Ok(true), |b| bool_arg(b, "auto_reset"))?;
        let record_history = record_history.map_or(Ok(false), |b| bool_arg(b, "record_history"))?;
        let options = VectorOptions { seed, threads, observation, auto_reset, record_history };
        let engine = each_game!(AnyGame -> Engine, AnyGame::of(game, "VectorGame")?, g => Core::new(g, n, options)?);
        VectorGame::build(game, engine, options)
    }

    /// Restart every game and deal it to its first decision; returns the :class:`Batch`. With
    /// ``seed``, game ``i``'s generator is seeded anew from ``(seed, i)``; without, from the
    /// constructor's seed on the first call and from where each generator stands afterwards.
    #[pyo3(signature = (seed = None))]
    fn reset(&self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Py<Batch>> {
        let seed = seed.map(seed_from).transpose()?;
        self.with_outputs(py, move |e, out| each_game!(Engine, e, v => v.reset(seed, out)))
    }

    /// Apply ``actions[i]`` (an int array of shape ``(n,)``, a legal action of game ``i``'s
    /// player to move; ignored for a finished game with ``auto_reset=False``) to every game,
    /// sample the chance events up to each game's next decision, restart the games that ended
    /// (``auto_reset``), and return the :class:`Batch`. An illegal action raises ``ValueError``
    /// ``"row i: illegal action …"`` (the first bad row) and changes no game.
    fn step(&self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<Py<Batch>> {
        let actions = actions_array(actions, self.n)?;
        let actions = actions.readonly();
        let actions = actions.as_slice().map_err(|e| PyValueError::new_err(format!("actions: {e}")))?;
        self.with_outputs(py, move |e, out| each_game!(Engine, e, v => v.step(actions, out)))
    }

    /// One uniformly random legal action per game, drawn in Rust, as a new int64 array of shape
    /// ``(n,)`` (-1 for a finished game). With ``seed``, game ``i``'s draw is a hash of
    /// ``(seed, i)``; without, of the vector's seed and the number of such calls so far
    /// (deterministic either way). The games are not changed.
    #[pyo3(signature = (seed = None))]
    fn sample_legal<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let seed = seed.map(seed_from).transpose()?;
        let mut engine = self.engine.try_lock().map_err(busy)?;
        let mut out = Vec::new();
        out.try_reserve_exact(self.n).map_err(|_| {
            pyo3::exceptions::PyMemoryError::new_err(format!(
                "VectorGame.sample_legal: cannot allocate {} MiB for {} actions; use fewer games",
                (self.n as u128 * 8) >> 20,
                self.n
            ))
        })?;
        out.resize(self.n, 0i64);
        let engine: &mut Engine = &mut engine;
        py.detach(|| each_game!(Engine, engine, v => v.sample_legal(seed, &mut out)))?;
        Ok(numpy::IntoPyArray::into_pyarray(out, py))
    }

    /// Game ``i`` as a new, independent ``State`` of its game. With ``record_history=True`` it
    /// carries the game's history since it began (chance outcomes included, so ``history()``
    /// replays it and undo works); otherwise it starts a new history.
    fn state(&self, py: Python<'_>, i: IntArg) -> PyResult<Py<PyAny>> {
        let i = i.within("i", 0..self.n as i64)? as usize;
        each_game!(Engine, &*self.engine.try_lock().map_err(busy)?, v => state_object(py, v, i))
    }

    fn __len__(&self) -> usize {
        self.n
    }

    /// ``"information_state"``, ``"observation"`` or None.
    #[getter]
    fn observation(&self) -> Option<&'static str> {
        match self.observation {
            Observation::None => None,
            o => Some(o.name()),
        }
    }

    /// The shape of one row's tensor, ``(T,)`` (``(0,)`` without one).
    #[getter]
    fn observation_shape(&self) -> (usize,) {
        (self.tensor_size,)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let obs = match self.observation {
            Observation::None => "None".to_string(),
            o => format!("'{}'", o.name()),
        };
        Ok(format!(
            "VectorGame({}, {}, observation={obs}, auto_reset={})",
            self.game.bind(py).repr()?,
            self.n,
            if self.auto_reset { "True" } else { "False" }
        ))
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VectorGame", m.py().get_type::<VectorGame>())?;
    m.add("VectorBatch", m.py().get_type::<Batch>())?;
    Ok(())
}
