import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProfileRef } from '../../contract/catalogue.js';
import { OWNER_PICKER_LIST_MAX } from '../../domain/catalogue.js';
import { ActionSelect } from '../components/labelled-select.js';
import { chosenProfile, ProfileSearch } from '../components/profile-search.js';

/** The owner choices: the teams offered, with the current owner added when missing (spec 6). */
export function ownerOptions(
  teams: ReadonlyArray<Pick<ProfileRef, 'id' | 'name'>>,
  current: Pick<ProfileRef, 'id' | 'name'>,
): Array<{ label: string; value: string }> {
  const all = teams.some((team) => team.id === current.id) ? teams : [current, ...teams];
  return all.map((team) => ({ label: team.name, value: team.id }));
}

/** Teams whose name or handle contains what was typed: a search over a list already loaded. */
export function teamsMatching<T extends Pick<ProfileRef, 'handle' | 'name'>>(teams: readonly T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  return teams.filter((team) => team.name.toLowerCase().includes(q) || team.handle.toLowerCase().includes(q));
}

/** Whether a picker lists its teams at once or searches them (issue: past 20 teams a list is a debounced search). */
export const searchesOwners = (teamCount: number): boolean => teamCount > OWNER_PICKER_LIST_MAX;

/**
 * The settings' Owner: a select that saves at once while the teams fit a list, else a debounced search
 * (`search`) that saves when a team is picked. The field shows the current owner until then.
 */
export function OwnerSetting({
  owner,
  teams,
  total,
  search,
  onChange,
}: {
  owner: ProfileRef;
  /** The first teams of the workspace, and how many there are. */
  teams: readonly ProfileRef[];
  total: number;
  search(query: string): Promise<ProfileRef[]>;
  onChange(teamId: string): Promise<unknown>;
}) {
  const [value, setValue] = useState<ProfileRef | string>(owner);
  const change = useMutation({ mutationFn: onChange });
  if (!searchesOwners(total)) {
    return (
      <ActionSelect
        id="service-owner"
        label="Owner"
        value={owner.id}
        options={ownerOptions(teams, owner)}
        {...{ onChange }}
      />
    );
  }
  return (
    <div className="flex flex-column gap-2">
      <label htmlFor="service-owner" className="font-semibold">
        Owner
      </label>
      <ProfileSearch
        inputId="service-owner"
        value={value}
        dropdown
        disabled={change.isPending}
        search={search}
        onChange={(next) => {
          setValue(next);
          const picked = chosenProfile(next);
          if (picked && picked.id !== owner.id) change.mutate(picked.id, { onError: () => setValue(owner) });
        }}
      />
    </div>
  );
}
