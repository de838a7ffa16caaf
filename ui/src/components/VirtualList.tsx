import type { ComponentChild } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

interface Props<T> {
  items: readonly T[];
  /** Every row is this tall (px): the list places rows by arithmetic, so 100,000 items cost what 30 do. */
  rowHeight: number;
  keyOf(item: T): string;
  render(item: T, index: number): ComponentChild;
  /** Enter or a click on a row. */
  onOpen(item: T, index: number): void;
  /** Called when the last rows come into view: load the next page. */
  onEndReached?: () => void;
  label: string;
  /** How many items there are in all (the server's count), when more than those loaded; told to assistive tech. */
  total?: number | undefined;
  /** Rows drawn beyond the visible ones, above and below. */
  overscan?: number;
}

/**
 * A windowed list (role listbox): only the rows in view are in the document. Arrow keys, Page Up/Down, Home and
 * End move the active row; Enter opens it. Written here rather than taken from a library: with fixed row heights
 * windowing is the arithmetic below, and the libraries for it target React.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  keyOf,
  render,
  onOpen,
  onEndReached,
  label,
  total,
  overscan = 8,
}: Props<T>) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const [active, setActive] = useState(0);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    setHeight(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);

  useEffect(() => {
    if (onEndReached && items.length > 0 && last >= items.length - overscan) onEndReached();
  }, [last, items.length]);

  useEffect(() => {
    if (active >= items.length) setActive(Math.max(0, items.length - 1));
  }, [items.length]);

  const moveTo = (index: number) => {
    const target = Math.max(0, Math.min(items.length - 1, index));
    setActive(target);
    const element = box.current;
    if (!element) return;
    const top = target * rowHeight;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + rowHeight > element.scrollTop + element.clientHeight)
      element.scrollTop = top + rowHeight - element.clientHeight;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: items.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      moveTo(moves[event.key]!);
    } else if (event.key === 'Enter' && items[active] !== undefined) {
      event.preventDefault();
      onOpen(items[active]!, active);
    }
  };

  const rows: ComponentChild[] = [];
  for (let index = first; index < last; index++) {
    const item = items[index]!;
    rows.push(
      // biome-ignore lint/a11y/useFocusableInteractive: a listbox with aria-activedescendant; focus stays on the list.
      // biome-ignore lint/a11y/useKeyWithClickEvents: the list's own onKeyDown moves through and opens the options.
      <div
        key={keyOf(item)}
        id={`row-${keyOf(item)}`}
        role="option"
        aria-selected={index === active}
        aria-posinset={index + 1}
        aria-setsize={Math.max(total ?? 0, items.length)}
        class={`vrow${index === active ? ' active' : ''}`}
        style={{ top: `${index * rowHeight}px`, height: `${rowHeight}px` }}
        onClick={() => {
          setActive(index);
          onOpen(item, index);
        }}
      >
        {render(item, index)}
      </div>,
    );
  }

  const current = items[active];
  return (
    <div
      ref={box}
      class="vlist"
      role="listbox"
      tabIndex={0}
      aria-label={label}
      aria-activedescendant={current !== undefined ? `row-${keyOf(current)}` : undefined}
      onScroll={(event) => setScrollTop((event.currentTarget as HTMLDivElement).scrollTop)}
      onKeyDown={onKeyDown}
    >
      <div class="vspacer" style={{ height: `${items.length * rowHeight}px` }}>
        {rows}
      </div>
    </div>
  );
}
