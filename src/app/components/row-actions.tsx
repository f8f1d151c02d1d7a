import { Button } from 'primereact/button';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { useRef } from 'react';

export interface RowActionsProps {
  /** The popup menu's id. */
  id: string;
  /** What the row is, for the button's name: 'Actions for {name}'. */
  name: string;
  items: MenuItem[];
  disabled?: boolean;
}

/** A table row's actions: an icon button that opens a popup menu. */
export function RowActions({ id, name, items, disabled }: RowActionsProps) {
  const menu = useRef<Menu>(null);
  return (
    <>
      <Menu model={items} popup ref={menu} id={id} />
      <Button
        type="button"
        icon="pi pi-ellipsis-v"
        text
        rounded
        aria-label={`Actions for ${name}`}
        aria-haspopup
        disabled={disabled}
        onClick={(event) => menu.current?.toggle(event)}
      />
    </>
  );
}
