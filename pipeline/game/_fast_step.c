/* One in-process step without ctypes: call the build's r2g_step_io and hand the legal
 * action ids back as a Python list (see rulebook2game/game/_fast.py). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef void (*r2g_step_io_t)(void *game, void *all, void *candidates, void *io);

/* step(function, all, candidates, io, words, ids, game, action) -> list of legal ids, or
 * None when the action is not legal. `candidates` is the build's R2GCandidates (the
 * table grouped by resumption point). `words` is the io buffer's data: words[0] is the action on
 * entry and the number of legal ids on return, words[1] the player to move, words[2..]
 * the ids. `ids` is the tuple (0, 1, ..., size - 1): the list holds its int objects, so
 * no int is made per step. */
static PyObject *step(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 8 || !PyTuple_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "step takes 8 arguments, the sixth a tuple");
        return NULL;
    }
    void *function = PyLong_AsVoidPtr(args[0]);
    void *all = PyLong_AsVoidPtr(args[1]);
    void *candidates = PyLong_AsVoidPtr(args[2]);
    void *io = PyLong_AsVoidPtr(args[3]);
    int64_t *words = (int64_t *)PyLong_AsVoidPtr(args[4]);
    PyObject *ids = args[5];
    Py_ssize_t size = PyTuple_GET_SIZE(ids);
    void *game = PyLong_AsVoidPtr(args[6]);
    long long action = PyLong_AsLongLong(args[7]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    words[0] = action;
    ((r2g_step_io_t)function)(game, all, candidates, io);
    int64_t n = words[0];
    if (n < 0) {
        Py_RETURN_NONE;
    }
    PyObject *legal = PyList_New((Py_ssize_t)n);
    if (legal == NULL) {
        return NULL;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t index = words[i + 2];
        if (index < 0 || index >= size) {
            Py_DECREF(legal);
            PyErr_SetString(PyExc_IndexError, "the engine gave an action id out of range");
            return NULL;
        }
        PyObject *id = PyTuple_GET_ITEM(ids, (Py_ssize_t)index);
        Py_INCREF(id);
        PyList_SET_ITEM(legal, (Py_ssize_t)i, id);
    }
    return legal;
}

static PyMethodDef methods[] = {
    {"step", (PyCFunction)(void (*)(void))step, METH_FASTCALL, "One step (see the source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_r2g_fast_step", NULL, -1, methods};

PyMODINIT_FUNC PyInit__r2g_fast_step(void) { return PyModule_Create(&module); }
