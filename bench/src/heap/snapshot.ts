/**
 * Reads a V8 heap snapshot (`HeapProfiler.takeHeapSnapshot`, the .heapsnapshot format): what is
 * alive by class, what is new since an earlier snapshot of the same process (node ids are stable
 * within a process), and for the largest of the new, the path that keeps them alive (each object's
 * nearest retainer towards the GC roots, weak edges left out).
 */

interface RawSnapshot {
  readonly snapshot: {
    readonly meta: {
      readonly node_fields: readonly string[];
      readonly node_types: readonly [readonly string[], ...unknown[]];
      readonly edge_fields: readonly string[];
      readonly edge_types: readonly [readonly string[], ...unknown[]];
    };
  };
  readonly nodes: readonly number[];
  readonly edges: readonly number[];
  readonly strings: readonly string[];
}

export interface ClassTotal {
  readonly name: string;
  readonly count: number;
  readonly bytes: number;
}

export interface RetainedBy {
  readonly name: string;
  /** The retaining path, nearest first: `Class.edge ← Class.edge …`. */
  readonly path: string;
  readonly count: number;
  readonly bytes: number;
}

/** The parsed graph, with the few indexes the questions below need. */
export class HeapGraph {
  readonly nodeCount: number;
  readonly #raw: RawSnapshot;
  readonly #nodeWidth: number;
  readonly #edgeWidth: number;
  readonly #nodeTypes: readonly string[];
  readonly #edgeTypes: readonly string[];
  readonly #firstEdge: Uint32Array;
  readonly #retainerStart: Uint32Array;
  /** Per retainer slot: the retaining node's index and the edge's index (into edges / width). */
  readonly #retainerNode: Uint32Array;
  readonly #retainerEdge: Uint32Array;
  readonly #distance: Uint32Array;
  readonly #f: Readonly<Record<'type' | 'name' | 'id' | 'self_size' | 'edge_count', number>>;
  readonly #e: Readonly<Record<'type' | 'name_or_index' | 'to_node', number>>;

  constructor(raw: RawSnapshot) {
    this.#raw = raw;
    const meta = raw.snapshot.meta;
    this.#nodeWidth = meta.node_fields.length;
    this.#edgeWidth = meta.edge_fields.length;
    this.#nodeTypes = meta.node_types[0];
    this.#edgeTypes = meta.edge_types[0];
    const field = (fields: readonly string[], name: string) => fields.indexOf(name);
    this.#f = {
      type: field(meta.node_fields, 'type'),
      name: field(meta.node_fields, 'name'),
      id: field(meta.node_fields, 'id'),
      self_size: field(meta.node_fields, 'self_size'),
      edge_count: field(meta.node_fields, 'edge_count'),
    };
    this.#e = {
      type: field(meta.edge_fields, 'type'),
      name_or_index: field(meta.edge_fields, 'name_or_index'),
      to_node: field(meta.edge_fields, 'to_node'),
    };
    const count = raw.nodes.length / this.#nodeWidth;
    this.nodeCount = count;
    this.#firstEdge = new Uint32Array(count + 1);
    for (let node = 0; node < count; node++) {
      this.#firstEdge[node + 1] =
        (this.#firstEdge[node] as number) + (raw.nodes[node * this.#nodeWidth + this.#f.edge_count] as number);
    }
    const edgeCount = raw.edges.length / this.#edgeWidth;
    const retainers = new Uint32Array(count + 1);
    for (let edge = 0; edge < edgeCount; edge++) {
      const to = this.#target(edge) + 1;
      retainers[to] = (retainers[to] as number) + 1;
    }
    for (let node = 0; node < count; node++)
      retainers[node + 1] = (retainers[node + 1] as number) + (retainers[node] as number);
    this.#retainerStart = retainers;
    this.#retainerNode = new Uint32Array(edgeCount);
    this.#retainerEdge = new Uint32Array(edgeCount);
    const fill = retainers.slice(0, count);
    for (let node = 0; node < count; node++) {
      for (let edge = this.#firstEdge[node] as number; edge < (this.#firstEdge[node + 1] as number); edge++) {
        const to = this.#target(edge);
        const slot = fill[to] as number;
        fill[to] = slot + 1;
        this.#retainerNode[slot] = node;
        this.#retainerEdge[slot] = edge;
      }
    }
    this.#distance = this.#distances();
  }

  /** Every live object by class. */
  classTotals(): ClassTotal[] {
    return this.#totals(() => true);
  }

  /** Objects whose ids `old` (an earlier snapshot's ids) lacks: created since, and alive now. */
  newSince(old: ReadonlySet<number>): ClassTotal[] {
    return this.#totals((node) => !old.has(this.#id(node)));
  }

  /**
   * For the new objects of the `classes` named: how many bytes each retaining path keeps,
   * `depth` steps towards the roots (array indexes collapsed to `[]`).
   */
  retainersOfNew(old: ReadonlySet<number>, classes: readonly string[], depth = 5, top = 30): RetainedBy[] {
    const wanted = new Set(classes);
    const groups = new Map<string, { name: string; path: string; count: number; bytes: number }>();
    for (let node = 0; node < this.nodeCount; node++) {
      const name = this.#className(node);
      if (!wanted.has(name) || old.has(this.#id(node))) continue;
      const path = this.#path(node, depth);
      const key = `${name}\u0000${path}`;
      const group = groups.get(key) ?? { name, path, count: 0, bytes: 0 };
      group.count++;
      group.bytes += this.#selfSize(node);
      groups.set(key, group);
    }
    return [...groups.values()].sort((a, b) => b.bytes - a.bytes).slice(0, top);
  }

  #totals(include: (node: number) => boolean): ClassTotal[] {
    const totals = new Map<string, { count: number; bytes: number }>();
    for (let node = 0; node < this.nodeCount; node++) {
      if (!include(node)) continue;
      const name = this.#className(node);
      const total = totals.get(name) ?? { count: 0, bytes: 0 };
      total.count++;
      total.bytes += this.#selfSize(node);
      totals.set(name, total);
    }
    return [...totals].map(([name, total]) => ({ name, ...total })).sort((a, b) => b.bytes - a.bytes);
  }

  /** The chain of nearest retainers (smallest distance to the roots), formatted. */
  #path(start: number, depth: number): string {
    const steps: string[] = [];
    let node = start;
    for (let step = 0; step < depth; step++) {
      let best = -1;
      let bestEdge = -1;
      for (let slot = this.#retainerStart[node] as number; slot < (this.#retainerStart[node + 1] as number); slot++) {
        const edge = this.#retainerEdge[slot] as number;
        if (this.#edgeType(edge) === 'weak') continue;
        const from = this.#retainerNode[slot] as number;
        if (best < 0 || (this.#distance[from] as number) < (this.#distance[best] as number)) {
          best = from;
          bestEdge = edge;
        }
      }
      if (best <= 0) break;
      steps.push(`${this.#className(best)}.${this.#edgeName(bestEdge)}`);
      node = best;
    }
    return steps.join(' ← ');
  }

  /** Breadth-first distance from the synthetic root (node 0), weak edges left out. */
  #distances(): Uint32Array {
    const distance = new Uint32Array(this.nodeCount).fill(0xffffffff);
    const queue = new Uint32Array(this.nodeCount);
    let head = 0;
    let tail = 0;
    distance[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
      const node = queue[head++] as number;
      for (let edge = this.#firstEdge[node] as number; edge < (this.#firstEdge[node + 1] as number); edge++) {
        if (this.#edgeType(edge) === 'weak') continue;
        const to = this.#target(edge);
        if (distance[to] !== 0xffffffff) continue;
        distance[to] = (distance[node] as number) + 1;
        queue[tail++] = to;
      }
    }
    return distance;
  }

  /** Every object's id: what a later snapshot compares with (keep it, drop the graph). */
  ids(): Set<number> {
    const ids = new Set<number>();
    for (let node = 0; node < this.nodeCount; node++) ids.add(this.#id(node));
    return ids;
  }

  #className(node: number): string {
    const type = this.#nodeTypes[this.#raw.nodes[node * this.#nodeWidth + this.#f.type] as number] ?? '?';
    const name = this.#raw.strings[this.#raw.nodes[node * this.#nodeWidth + this.#f.name] as number] ?? '';
    switch (type) {
      case 'object':
        return name;
      case 'closure':
        return `closure ${name || '(anonymous)'}`;
      case 'string':
      case 'concatenated string':
      case 'sliced string':
        return '(string)';
      case 'number':
        return '(number)';
      case 'code':
        return '(code)';
      case 'array':
        return `(array ${name})`;
      default:
        return `(${type}) ${name.length > 60 ? `${name.slice(0, 60)}…` : name}`;
    }
  }

  #edgeName(edge: number): string {
    const type = this.#edgeType(edge);
    const value = this.#raw.edges[edge * this.#edgeWidth + this.#e.name_or_index] as number;
    if (type === 'element' || type === 'hidden') return '[]';
    return this.#raw.strings[value] ?? String(value);
  }

  #edgeType(edge: number): string {
    return this.#edgeTypes[this.#raw.edges[edge * this.#edgeWidth + this.#e.type] as number] ?? '?';
  }

  #target(edge: number): number {
    return (this.#raw.edges[edge * this.#edgeWidth + this.#e.to_node] as number) / this.#nodeWidth;
  }

  #id(node: number): number {
    return this.#raw.nodes[node * this.#nodeWidth + this.#f.id] as number;
  }

  #selfSize(node: number): number {
    return this.#raw.nodes[node * this.#nodeWidth + this.#f.self_size] as number;
  }
}

export function parseHeapSnapshot(text: string): HeapGraph {
  return new HeapGraph(JSON.parse(text) as RawSnapshot);
}
