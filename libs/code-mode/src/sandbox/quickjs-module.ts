import { readFileSync } from 'node:fs';
import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

/**
 * The release build of QuickJS, synchronous (no asyncify: inner calls are promises the host
 * settles), its Emscripten module loaded with `require` where the package's own loader uses
 * `import()`, which CommonJS test runners cannot follow.
 */
type EmscriptenLoader = (options?: object) => Promise<unknown>;
const variant: typeof releaseSync = {
  ...releaseSync,
  importModuleLoader: async () => {
    const load = (require('@jitl/quickjs-wasmfile-release-sync/emscripten-module') as { default: EmscriptenLoader }).default;
    const quiet: EmscriptenLoader = (options) => load({ ...options, printErr: quietLeakAbort });
    return quiet as unknown as Awaited<ReturnType<typeof releaseSync.importModuleLoader>>;
  },
};

/**
 * QuickJS asserts, as it frees a runtime, that no object is left; a program ended early (a limit
 * hit mid-way, an interrupt) can leave some, and the abort is expected: `dispose` reports it and the
 * module is replaced. Emscripten would print it on stderr as if it were a crash; anything else it
 * prints still goes there.
 */
function quietLeakAbort(text: string): void {
  if (/^Aborted\(Assertion failed: list_empty\(&rt->gc_obj_list\)/.test(text)) return;
  console.error(text);
}

/** The part of the WebAssembly API used here (the project's TypeScript libraries do not declare it; Node has it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
type WasmModule = object;
declare const WebAssembly: {
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
  compile(bytes: Uint8Array): Promise<WasmModule>;
};

const PAGE = 64 * 1024;
/** The interpreter's own memory, which its build requires at least (Emscripten's `INITIAL_MEMORY`, 16 MiB). */
export const INTERPRETER_BASE_BYTES = 16 * 1024 * 1024;

/** The build compiled once per thread: each new module instantiates it (a few ms) instead of compiling it again. */
let compiled: Promise<WasmModule> | undefined;

/**
 * One QuickJS WebAssembly module and the linear memory it runs in, capped at the interpreter's
 * own 16 MiB plus `memoryBytes`. The cap is what bounds a program's memory: QuickJS's own limit
 * (`JS_SetMemoryLimit`) counts 8 bytes per allocation in this build, whatever its size
 * (quickjs-emscripten#271: Emscripten reports no usable size), so a program holding large
 * strings or arrays passes it by hundreds of megabytes. At the cap the allocator gets no more
 * memory and QuickJS fails the allocation (an `out of memory` InternalError, or a thrown `null`
 * when even that error cannot be allocated); `failedGrowths` tells the two apart from a program's own throw.
 */
export class InterpreterModule {
  private constructor(
    readonly module: QuickJSWASMModule,
    readonly memory: WasmMemory,
    /** The `memoryBytes` the cap was made for. */
    readonly memoryBytes: number,
    private readonly refused: { growths: number },
  ) {}

  /** Times the memory was asked to grow past its cap since the module was made. */
  get failedGrowths(): number {
    return this.refused.growths;
  }

  static async load(memoryBytes: number): Promise<InterpreterModule> {
    compiled ??= WebAssembly.compile(readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
    const initial = INTERPRETER_BASE_BYTES / PAGE;
    const memory = new WebAssembly.Memory({ initial, maximum: initial + Math.ceil(memoryBytes / PAGE) });
    const refused = { growths: 0 };
    // Emscripten grows the heap through this method and takes a throw as "no more memory".
    const grow = memory.grow.bind(memory);
    memory.grow = (pages: number) => {
      try {
        return grow(pages);
      } catch (error) {
        refused.growths++;
        throw error;
      }
    };
    const module = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule: (await compiled) as never, wasmMemory: memory as never }));
    return new InterpreterModule(module, memory, memoryBytes, refused);
  }

  /** Bytes the memory has grown beyond the interpreter's own: what a program's heap took and the module keeps until it is replaced. */
  get grownBytes(): number {
    return this.memory.buffer.byteLength - INTERPRETER_BASE_BYTES;
  }
}
