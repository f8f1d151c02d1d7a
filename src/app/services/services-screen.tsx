import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useAuth } from '../session/auth-context.js';
import { ListPaginator } from '../components/list-paginator.js';
import { SearchBox } from '../components/search-box.js';
import { Spinner } from '../components/status-screens.js';
import type { SearchPage } from '../api/query-keys.js';
import { firstServicesPage, getServicesSearchQueryOptions } from './service-api.js';
import { ServiceCard } from './service-card.js';
import { LastSynced, loadStateOf, NotAvailableOffline } from '../components/load-state.js';

function ServicesGrid({ params, onPage }: { params: SearchPage; onPage: (cursor: number) => void }) {
  const { api } = useAuth();
  const query = useQuery(getServicesSearchQueryOptions(api, params));
  const { data } = query;
  const state = loadStateOf(query);
  if (state === 'pending') return <Spinner label="Loading services" />;
  if (state === 'offline') return <NotAvailableOffline />;
  const services = data?.items ?? [];
  const total = data?.total ?? 0;
  if (services.length === 0) return <p className="text-600 m-0">No services found</p>;
  return (
    <>
      <LastSynced query={query} />
      <ul className="grid list-none p-0 m-0" aria-label="Services">
        {services.map((service) => (
          <li key={service.id} className="col-12 md:col-4">
            <ServiceCard service={service} />
          </li>
        ))}
      </ul>
      <ListPaginator page={params} total={total} onPage={onPage} />
    </>
  );
}

/** The services list at /services (spec/catalogue.md 2.2): search, cards three per row, 36 a page. */
export default function ServicesScreen() {
  const [params, setParams] = useState<SearchPage>(firstServicesPage());
  return (
    <section className="flex flex-column gap-3">
      <h1 className="text-3xl font-semibold m-0">Services</h1>
      {/* Spec: a new search starts again at offset 0. */}
      <SearchBox
        id="services-search"
        label="Search services"
        onSearch={(q) => setParams((current) => ({ ...current, q, cursor: 0 }))}
      />
      <ServicesGrid params={params} onPage={(cursor) => setParams((current) => ({ ...current, cursor }))} />
    </section>
  );
}
