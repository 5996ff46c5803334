/**
 * The fixtures of the mock's data (fixtures/mock-data/), typed: their shapes are checked by the
 * compiler against the JSON files.
 */
import bookingJson from '../../fixtures/mock-data/booking.json' with { type: 'json' };
import referenceJson from '../../fixtures/mock-data/reference.json' with { type: 'json' };
import transfersJson from '../../fixtures/mock-data/transfers.json' with { type: 'json' };

/** Text per language code; 'en' is always there and is the fallback. */
export type Localized = { readonly en: string } & Readonly<Record<string, string>>;

export interface ReferenceData {
  languages: { isoCode: string; name: string }[];
  labels: Record<string, { id: number; text: Localized }>;
  meals: { id: number; name: Localized; labels?: string[] }[];
  roomTypes: { id: number; name?: Localized; sharedRoom: number; sharedFacilities: number | null }[];
  hotelNoteTypes: { id: number; text: Localized }[];
  roomNoteTypes: { id: number; text: Localized }[];
  themes: { id: number; name?: Localized; image?: string }[];
  features: { name: Localized }[];
}

export interface Currency {
  code: string;
  perEuro: string;
  decimals: number;
}

interface BookingData {
  currencies: Currency[];
  bookingCurrencies: string[];
  nightlyRateCents: { min: number; max: number };
  hotelNotes: Localized[];
  roomNotes: Localized[];
  paymentMethods: { id: number; name: Localized }[];
  cancellationTypes: { type: string; policy: Localized }[];
  policyPercentages: string[];
  specialRequests: string[];
  specialRequestMessages: { saved: string; cleared: string };
  transferCancellationFeeEuroCents: { min: number; max: number };
}

export interface Airport {
  airportId: number;
  resortId: number;
  airportName?: string;
  iataCode?: string;
  timeZone?: string;
  transfers?: {
    transferTypeId: number;
    minimumPassengers: number;
    maximumPassengers: number;
    minutes: number;
    priceCents: number;
    named: boolean;
  }[];
}

export interface TransferData {
  transferTypes: { id: number; name: Localized }[];
  network: { airports: number; firstAirportId: number; firstResortId: number; resorts: number; timeZones: string[] };
  airports: Airport[];
}

export const REF: ReferenceData = referenceJson;
export const BOOK: BookingData = bookingJson;
export const TRANSFERS: TransferData = transfersJson;
