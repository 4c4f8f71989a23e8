//! The sowing trace of a move as Python objects: each step a dict shaped as
//! the rules library's JSON form of it (`{"step": "sow", "hole": 4}`, ...;
//! see the `trace` module of `mancala-rules`).

use mancala_rules::Step;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;

/// `steps` as a list of dicts.
pub fn steps_to_py<'py>(py: Python<'py>, steps: &[Step]) -> PyResult<Bound<'py, PyList>> {
    let items = steps
        .iter()
        .map(|step| {
            let value = serde_json::to_value(step)
                .map_err(|e| PyValueError::new_err(format!("trace step {step:?}: {e}")))?;
            value_to_py(py, &value)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

fn value_to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match n.as_u64() {
            Some(u) => u.into_pyobject(py)?.into_any(),
            None => n.as_i64().unwrap_or_default().into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, value_to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}
