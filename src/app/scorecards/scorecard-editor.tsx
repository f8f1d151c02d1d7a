import { useQuery } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { Link, useParams } from 'react-router-dom';
import type { Scorecard } from '../../contract/scorecards.js';
import { useApi } from '../session/use-api.js';
import { DeleteCard } from '../components/delete-card.js';
import { LinkButton } from '../components/link-button.js';
import { NotFound, Spinner } from '../components/status-screens.js';
import { useBreadcrumb } from '../shell/breadcrumb.js';
import { ScorecardForm } from './scorecard-form.js';
import {
  deleteScorecard,
  forgetScorecard,
  getScorecardQueryOptions,
  SCORECARD_EDITOR_PATH,
  scorecardPath,
  SCORECARDS_PATH,
} from './scorecards-api.js';

export const SCORECARD_DELETED = 'Scorecard was deleted';
export const SCORECARD_DELETE_FAILED = 'There was an error while deleting the scorecard';

const editorCrumbs = (label: string) => ({
  name: 'Scorecards',
  to: SCORECARDS_PATH,
  crumbs: [{ label }],
});

function ScorecardEditor({ scorecard }: { scorecard: Scorecard | null }) {
  return (
    <div className="flex flex-column gap-3">
      <div className="flex flex-wrap align-items-center justify-content-between gap-2">
        <h1 className="text-2xl font-semibold m-0 beacon-editor-wrap">
          {scorecard ? `Edit ${scorecard.name}` : 'New scorecard'}
        </h1>
        {scorecard && <Link to={scorecardPath(scorecard.handle)}>Open scorecard</Link>}
      </div>
      {/* After a save the scorecard is the server's answer: the form starts afresh from it. */}
      <ScorecardForm
        key={JSON.stringify([scorecard?.levels, scorecard?.rules, scorecard?.updated_at])}
        scorecard={scorecard}
      />
      {scorecard && (
        <DeleteCard
          label="Delete scorecard"
          note="Its results, history and exemptions go with it."
          question={`Are you sure you want to delete the scorecard ${scorecard.name}?`}
          remove={(api) => deleteScorecard(api, scorecard.handle)}
          deleted={SCORECARD_DELETED}
          failed={SCORECARD_DELETE_FAILED}
          leaveTo={SCORECARDS_PATH}
          forget={(queryClient) => forgetScorecard(queryClient, scorecard.handle)}
        />
      )}
    </div>
  );
}

function NewScorecard() {
  useBreadcrumb(editorCrumbs('New scorecard'));
  return <ScorecardEditor scorecard={null} />;
}

function ExistingScorecard({ handle }: { handle: string }) {
  const api = useApi();
  const query = useQuery(getScorecardQueryOptions(api, handle));
  useBreadcrumb(editorCrumbs(query.data ? `Edit ${query.data.name}` : handle));
  if (query.isPending) return <Spinner label="Loading scorecard" />;
  if (!query.data) return <NotFound title="Scorecard not found" text="The scorecard was not found" />;
  return <ScorecardEditor scorecard={query.data} />;
}

/** /admin/scorecards/new and /admin/scorecards/{handle}: the definition's form, and on a saved one its delete. */
export function ScorecardEditorScreen() {
  const { handle } = useParams();
  return handle ? <ExistingScorecard key={handle} handle={handle} /> : <NewScorecard />;
}

/** The admin overview's card: what scorecards are, and the way to define one. */
export function ScorecardsCard() {
  return (
    <Card className="h-full" title={<h2 className="text-xl font-semibold m-0">Scorecards</h2>}>
      <div className="flex flex-column gap-3">
        <p className="m-0 text-600">Rules every service is checked against, with levels to reach.</p>
        <div className="flex flex-wrap gap-2">
          <LinkButton to={`${SCORECARD_EDITOR_PATH}/new`} icon="pi pi-plus" label="New scorecard" />
          <LinkButton to={SCORECARDS_PATH} icon="pi pi-list-check" label="All scorecards" outlined />
        </div>
      </div>
    </Card>
  );
}
