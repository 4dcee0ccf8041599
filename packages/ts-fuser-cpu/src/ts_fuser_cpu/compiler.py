"""LLVM for the host CPU: optimize IR, emit object code, load it into the process.

One `LLVMCompiler` per process (`compiler()`), created on first use:

- a target machine for this CPU (`llvm.get_host_cpu_name()` and its
  features, so AVX-512 is used where the CPU has it), opt level 3;
- the new pass manager's O3 pipeline with loop and SLP vectorization on;
- one MCJIT engine into which every kernel's object code is loaded, whether
  just compiled or read from the disk cache. Calls into libm resolve against
  the running process.

LLVM is not thread-safe, so compiling and loading hold a lock.
"""

from __future__ import annotations

import threading

import llvmlite
import llvmlite.binding as llvm

_INIT_LOCK = threading.Lock()
_compiler: LLVMCompiler | None = None


class LLVMCompiler:
    def __init__(self) -> None:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        self.cpu_name = llvm.get_host_cpu_name()
        self.cpu_features = llvm.get_host_cpu_features().flatten()
        self.triple = llvm.get_process_triple()
        target = llvm.Target.from_triple(self.triple)
        self.target_machine = target.create_target_machine(
            cpu=self.cpu_name, features=self.cpu_features, opt=3
        )
        self._engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), self.target_machine)
        self._loaded: dict[str, int] = {}
        self.lock = threading.RLock()

    @property
    def identity(self) -> tuple[str, ...]:
        """What object code depends on besides the IR: LLVM and the CPU."""
        version = ".".join(map(str, llvm.llvm_version_info))
        return (llvmlite.__version__, version, self.triple, self.cpu_name, self.cpu_features)

    def _module(self, ir_text: str) -> llvm.ModuleRef:
        module = llvm.parse_assembly(ir_text)
        module.triple = self.triple
        module.data_layout = str(self.target_machine.target_data)
        module.verify()
        return module

    def _optimize(self, module: llvm.ModuleRef) -> None:
        options = llvm.create_pipeline_tuning_options(speed_level=3)
        options.loop_vectorization = True
        options.slp_vectorization = True
        # unrolling the vector loops again costs compile time and, measured, gains nothing
        options.loop_unrolling = False
        builder = llvm.create_pass_builder(self.target_machine, options)
        builder.getModulePassManager().run(module, builder)

    def optimized(self, ir_text: str) -> llvm.ModuleRef:
        with self.lock:
            module = self._module(ir_text)
            self._optimize(module)
            return module

    def compile(self, ir_text: str) -> bytes:
        """IR text → optimized object code for this machine."""
        with self.lock:
            module = self._module(ir_text)
            self._optimize(module)
            return self.target_machine.emit_object(module)

    def assembly(self, ir_text: str) -> str:
        """The optimized machine code as assembly text (for inspection and tests)."""
        with self.lock:
            return self.target_machine.emit_assembly(self.optimized(ir_text))

    def load(self, object_code: bytes, symbols: list[str]) -> list[int]:
        """Load object code into the process; the addresses of `symbols`. Code defining the first
        symbol is loaded once: loading it again returns the first copy's addresses."""
        with self.lock:
            if symbols[0] not in self._loaded:
                self._engine.add_object_file(llvm.ObjectFileRef.from_data(object_code))
                self._engine.finalize_object()
                for symbol in symbols:
                    address = self._engine.get_function_address(symbol)
                    if not address:
                        from .errors import FuserError

                        raise FuserError(f"the object code does not define {symbol}")
                    self._loaded[symbol] = address
            return [self._loaded[s] for s in symbols]

    def is_loaded(self, symbol: str) -> int | None:
        return self._loaded.get(symbol)


def compiler() -> LLVMCompiler:
    """The process's compiler, made on first use."""
    global _compiler
    if _compiler is None:
        with _INIT_LOCK:
            if _compiler is None:
                _compiler = LLVMCompiler()
    return _compiler
