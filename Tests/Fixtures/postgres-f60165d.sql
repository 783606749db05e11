--
-- PostgreSQL database dump
--

\restrict K0DtmQtEOlRRfwzcHAUJGGsp8mWekRnSDKcOiSkjfsIcS13rVlsmafWytjqslJB

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: stratus_distance(double precision, double precision, double precision, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stratus_distance(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision) RETURNS double precision
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT 6371000 * 2 * atan2(sqrt(a), sqrt(1 - a)) FROM (SELECT
        sin(radians(lat2 - lat1) / 2) ^ 2 + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lon2 - lon1) / 2) ^ 2 AS a) AS t
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accepted_messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accepted_messages (
    message text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL
);


--
-- Name: administrators; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.administrators (
    username text NOT NULL COLLATE pg_catalog."C",
    password_hash text NOT NULL COLLATE pg_catalog."C",
    created_at bigint NOT NULL
);


--
-- Name: apns_credentials; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.apns_credentials (
    container_id text NOT NULL COLLATE pg_catalog."C",
    key_id text NOT NULL COLLATE pg_catalog."C",
    team_id text NOT NULL COLLATE pg_catalog."C",
    topic text NOT NULL COLLATE pg_catalog."C",
    private_key text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: apns_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.apns_tokens (
    container_id text NOT NULL COLLATE pg_catalog."C",
    apns_token text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    apns_environment text NOT NULL COLLATE pg_catalog."C",
    registered_at bigint NOT NULL,
    session_hash text COLLATE pg_catalog."C"
);


--
-- Name: asset_blobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_blobs (
    checksum text NOT NULL COLLATE pg_catalog."C",
    size bigint NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: asset_chunks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_chunks (
    checksum text NOT NULL COLLATE pg_catalog."C",
    part integer NOT NULL,
    bytes bytea NOT NULL
);
ALTER TABLE ONLY public.asset_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;


--
-- Name: asset_collection_holds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_collection_holds (
    holder text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL
);


--
-- Name: asset_references; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_references (
    zone_id bigint NOT NULL,
    record_name text NOT NULL COLLATE pg_catalog."C",
    checksum text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: asset_uploads; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.asset_uploads (
    receipt_hash text NOT NULL COLLATE pg_catalog."C",
    database_id bigint NOT NULL,
    zone_name text NOT NULL COLLATE pg_catalog."C",
    record_name text NOT NULL COLLATE pg_catalog."C",
    field_name text NOT NULL COLLATE pg_catalog."C",
    uploaded_by text NOT NULL COLLATE pg_catalog."C",
    checksum text NOT NULL COLLATE pg_catalog."C",
    size bigint NOT NULL,
    uploaded_at bigint NOT NULL
);


--
-- Name: bus_messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.bus_messages (
    id bigint NOT NULL,
    body text NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: bus_messages_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.bus_messages ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.bus_messages_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: change_sequence; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.change_sequence (
    id integer NOT NULL,
    value bigint NOT NULL,
    CONSTRAINT change_sequence_id_check CHECK ((id = 1))
);


--
-- Name: console_sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.console_sessions (
    token_hash text NOT NULL COLLATE pg_catalog."C",
    username text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL
);


--
-- Name: containers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.containers (
    id text NOT NULL COLLATE pg_catalog."C",
    api_token text NOT NULL COLLATE pg_catalog."C",
    created_at bigint NOT NULL,
    web_origins text DEFAULT ''::text NOT NULL
);


--
-- Name: databases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.databases (
    id bigint NOT NULL,
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    scope text NOT NULL COLLATE pg_catalog."C",
    owner_record_name text NOT NULL COLLATE pg_catalog."C",
    purged_sequence bigint DEFAULT 0 NOT NULL
);


--
-- Name: databases_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.databases ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.databases_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: email_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.email_codes (
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    code_hash text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL,
    attempts integer DEFAULT 0 NOT NULL
);


--
-- Name: job_leases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.job_leases (
    name text NOT NULL COLLATE pg_catalog."C",
    holder text NOT NULL,
    expires_at bigint NOT NULL
);


--
-- Name: password_reset_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.password_reset_codes (
    code_hash text NOT NULL COLLATE pg_catalog."C",
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL
);


--
-- Name: rate_buckets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rate_buckets (
    key text NOT NULL COLLATE pg_catalog."C",
    tokens double precision NOT NULL,
    updated_at bigint NOT NULL,
    taken boolean NOT NULL
);


--
-- Name: record_index; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.record_index (
    zone_id bigint NOT NULL,
    record_type text NOT NULL COLLATE pg_catalog."C",
    field_name text NOT NULL COLLATE pg_catalog."C",
    value bytea NOT NULL,
    number double precision,
    is_real boolean NOT NULL,
    record_name text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: record_references; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.record_references (
    zone_id bigint NOT NULL,
    target_name text NOT NULL COLLATE pg_catalog."C",
    source_name text NOT NULL COLLATE pg_catalog."C",
    action text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: records; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.records (
    zone_id bigint NOT NULL,
    record_name text NOT NULL COLLATE pg_catalog."C",
    record_type text NOT NULL COLLATE pg_catalog."C",
    change_tag text NOT NULL COLLATE pg_catalog."C",
    fields bytea NOT NULL,
    created_at bigint NOT NULL,
    created_by text NOT NULL COLLATE pg_catalog."C",
    created_device text NOT NULL COLLATE pg_catalog."C",
    modified_at bigint NOT NULL,
    modified_by text NOT NULL COLLATE pg_catalog."C",
    modified_device text NOT NULL COLLATE pg_catalog."C",
    parent text COLLATE pg_catalog."C",
    share text COLLATE pg_catalog."C",
    sequence bigint NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    create_key text COLLATE pg_catalog."C"
);


--
-- Name: schema_fields; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_fields (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    record_type text NOT NULL COLLATE pg_catalog."C",
    field_name text NOT NULL COLLATE pg_catalog."C",
    field_type text NOT NULL COLLATE pg_catalog."C",
    indexes integer NOT NULL
);


--
-- Name: schema_grants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_grants (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    record_type text NOT NULL COLLATE pg_catalog."C",
    role text NOT NULL COLLATE pg_catalog."C",
    permissions integer NOT NULL
);


--
-- Name: schema_record_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_record_types (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    record_type text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: schema_roles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_roles (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    role text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: server_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.server_keys (
    key_id text NOT NULL COLLATE pg_catalog."C",
    container_id text NOT NULL COLLATE pg_catalog."C",
    public_key text NOT NULL COLLATE pg_catalog."C",
    created_at bigint NOT NULL,
    revoked_at bigint
);


--
-- Name: server_secrets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.server_secrets (
    name text NOT NULL COLLATE pg_catalog."C",
    value bytea NOT NULL
);


--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    token_hash text NOT NULL COLLATE pg_catalog."C",
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    expires_at bigint NOT NULL
);


--
-- Name: share_participants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.share_participants (
    zone_id bigint NOT NULL,
    share_record_name text NOT NULL COLLATE pg_catalog."C",
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    permission text NOT NULL COLLATE pg_catalog."C",
    type text NOT NULL COLLATE pg_catalog."C",
    status text NOT NULL COLLATE pg_catalog."C",
    "position" integer NOT NULL
);


--
-- Name: shared_zones; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.shared_zones (
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    zone_id bigint NOT NULL,
    active boolean NOT NULL,
    sequence bigint NOT NULL
);


--
-- Name: shares; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.shares (
    zone_id bigint NOT NULL,
    record_name text NOT NULL COLLATE pg_catalog."C",
    root_record_name text COLLATE pg_catalog."C",
    short_guid text NOT NULL COLLATE pg_catalog."C",
    public_permission text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: store_epoch; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.store_epoch (
    id integer NOT NULL,
    epoch bigint NOT NULL,
    CONSTRAINT store_epoch_id_check CHECK ((id = 1))
);


--
-- Name: stratus_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stratus_migrations (
    identifier text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: subscriptions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.subscriptions (
    database_id bigint NOT NULL,
    owner text NOT NULL COLLATE pg_catalog."C",
    subscription_id text NOT NULL COLLATE pg_catalog."C",
    body text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: user_roles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.user_roles (
    container_id text NOT NULL COLLATE pg_catalog."C",
    environment text NOT NULL COLLATE pg_catalog."C",
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    role text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    user_record_name text NOT NULL COLLATE pg_catalog."C",
    container_id text NOT NULL COLLATE pg_catalog."C",
    username text NOT NULL COLLATE pg_catalog."C",
    password_hash text NOT NULL COLLATE pg_catalog."C",
    created_at bigint NOT NULL,
    email text COLLATE pg_catalog."C",
    discoverable boolean DEFAULT false NOT NULL,
    email_verified boolean DEFAULT false NOT NULL,
    disabled_at bigint,
    apple_subject text COLLATE pg_catalog."C",
    apple_email text,
    apple_email_verified boolean DEFAULT false NOT NULL
);


--
-- Name: zones; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.zones (
    id bigint NOT NULL,
    database_id bigint NOT NULL,
    zone_name text NOT NULL COLLATE pg_catalog."C",
    change_sequence bigint NOT NULL,
    purged_sequence bigint DEFAULT 0 NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    deleted_at bigint
);


--
-- Name: zones_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.zones ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.zones_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Data for Name: accepted_messages; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: administrators; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: apns_credentials; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: apns_tokens; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: asset_blobs; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.asset_blobs VALUES ('CGu5cnI7IWEOGKIchbCVubSn/c9uPvD6FHlyfeY2gxM=', 48, 1795907149808);


--
-- Data for Name: asset_chunks; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.asset_chunks VALUES ('CGu5cnI7IWEOGKIchbCVubSn/c9uPvD6FHlyfeY2gxM=', 0, '\x66697874757265206173736574206279746573207772697474656e206279207468652066363031363564206275696c64');


--
-- Data for Name: asset_collection_holds; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: asset_references; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.asset_references VALUES (2, 'note-1', 'CGu5cnI7IWEOGKIchbCVubSn/c9uPvD6FHlyfeY2gxM=');


--
-- Data for Name: asset_uploads; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.asset_uploads VALUES ('3a410034145b959301afc99584259ad86f32780ad823b2add045efa835611cc1', 1, '_defaultZone', '209B48BA-C789-4A76-807D-9A1E0272B169', 'file', '_9acf9d87197b2bceae9dec6d09a3f42d', 'CGu5cnI7IWEOGKIchbCVubSn/c9uPvD6FHlyfeY2gxM=', 48, 1795907149808);


--
-- Data for Name: bus_messages; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.bus_messages OVERRIDING SYSTEM VALUE VALUES (1, '{"from":"9A252716-8D2F-4416-A277-FBEB3A600E60","message":{"committed":{"_0":{"database":{"environment":"development","scope":"private","ownerRecordName":"_9acf9d87197b2bceae9dec6d09a3f42d","containerID":"iCloud.test.stratus"},"zoneRowID":2,"zoneDeleted":false,"participants":[],"records":[{"recordType":"Item","recordName":"item-000","trigger":"create","fields":"{\"title\":{\"value\":\"Item 0\",\"type\":\"STRING\"},\"n\":{\"value\":0,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-001","trigger":"create","fields":"{\"title\":{\"value\":\"Item 1\",\"type\":\"STRING\"},\"n\":{\"value\":1,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-002","trigger":"create","fields":"{\"title\":{\"value\":\"Item 2\",\"type\":\"STRING\"},\"n\":{\"value\":2,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-003","trigger":"create","fields":"{\"title\":{\"value\":\"Item 3\",\"type\":\"STRING\"},\"n\":{\"value\":3,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-004","trigger":"create","fields":"{\"n\":{\"value\":4,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 4\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-005","trigger":"create","fields":"{\"n\":{\"value\":5,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 5\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-006","trigger":"create","fields":"{\"n\":{\"value\":6,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 6\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-007","trigger":"create","fields":"{\"n\":{\"value\":7,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 7\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-008","trigger":"create","fields":"{\"title\":{\"value\":\"Item 8\",\"type\":\"STRING\"},\"n\":{\"value\":8,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-009","trigger":"create","fields":"{\"n\":{\"value\":9,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 9\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-010","trigger":"create","fields":"{\"title\":{\"value\":\"Item 10\",\"type\":\"STRING\"},\"n\":{\"value\":10,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-011","trigger":"create","fields":"{\"title\":{\"value\":\"Item 11\",\"type\":\"STRING\"},\"n\":{\"value\":11,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-012","trigger":"create","fields":"{\"title\":{\"value\":\"Item 12\",\"type\":\"STRING\"},\"n\":{\"value\":12,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-013","trigger":"create","fields":"{\"title\":{\"value\":\"Item 13\",\"type\":\"STRING\"},\"n\":{\"value\":13,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-014","trigger":"create","fields":"{\"n\":{\"value\":14,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 14\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-015","trigger":"create","fields":"{\"title\":{\"value\":\"Item 15\",\"type\":\"STRING\"},\"n\":{\"value\":15,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-016","trigger":"create","fields":"{\"n\":{\"value\":16,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 16\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-017","trigger":"create","fields":"{\"title\":{\"value\":\"Item 17\",\"type\":\"STRING\"},\"n\":{\"value\":17,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-018","trigger":"create","fields":"{\"title\":{\"value\":\"Item 18\",\"type\":\"STRING\"},\"n\":{\"value\":18,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-019","trigger":"create","fields":"{\"n\":{\"value\":19,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 19\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-020","trigger":"create","fields":"{\"title\":{\"value\":\"Item 20\",\"type\":\"STRING\"},\"n\":{\"value\":20,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-021","trigger":"create","fields":"{\"title\":{\"value\":\"Item 21\",\"type\":\"STRING\"},\"n\":{\"value\":21,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-022","trigger":"create","fields":"{\"n\":{\"value\":22,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 22\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-023","trigger":"create","fields":"{\"n\":{\"value\":23,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 23\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-024","trigger":"create","fields":"{\"n\":{\"value\":24,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 24\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-025","trigger":"create","fields":"{\"title\":{\"value\":\"Item 25\",\"type\":\"STRING\"},\"n\":{\"value\":25,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-026","trigger":"create","fields":"{\"title\":{\"value\":\"Item 26\",\"type\":\"STRING\"},\"n\":{\"value\":26,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-027","trigger":"create","fields":"{\"title\":{\"value\":\"Item 27\",\"type\":\"STRING\"},\"n\":{\"value\":27,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-028","trigger":"create","fields":"{\"n\":{\"value\":28,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 28\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-029","trigger":"create","fields":"{\"title\":{\"value\":\"Item 29\",\"type\":\"STRING\"},\"n\":{\"value\":29,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-030","trigger":"create","fields":"{\"title\":{\"value\":\"Item 30\",\"type\":\"STRING\"},\"n\":{\"value\":30,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-031","trigger":"create","fields":"{\"n\":{\"value\":31,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 31\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-032","trigger":"create","fields":"{\"n\":{\"value\":32,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 32\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-033","trigger":"create","fields":"{\"n\":{\"value\":33,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 33\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-034","trigger":"create","fields":"{\"n\":{\"value\":34,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 34\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-035","trigger":"create","fields":"{\"n\":{\"value\":35,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 35\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-036","trigger":"create","fields":"{\"title\":{\"value\":\"Item 36\",\"type\":\"STRING\"},\"n\":{\"value\":36,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-037","trigger":"create","fields":"{\"n\":{\"value\":37,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 37\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-038","trigger":"create","fields":"{\"title\":{\"value\":\"Item 38\",\"type\":\"STRING\"},\"n\":{\"value\":38,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-039","trigger":"create","fields":"{\"title\":{\"value\":\"Item 39\",\"type\":\"STRING\"},\"n\":{\"value\":39,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-040","trigger":"create","fields":"{\"n\":{\"value\":40,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 40\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-041","trigger":"create","fields":"{\"title\":{\"value\":\"Item 41\",\"type\":\"STRING\"},\"n\":{\"value\":41,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-042","trigger":"create","fields":"{\"title\":{\"value\":\"Item 42\",\"type\":\"STRING\"},\"n\":{\"value\":42,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-043","trigger":"create","fields":"{\"title\":{\"value\":\"Item 43\",\"type\":\"STRING\"},\"n\":{\"value\":43,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-044","trigger":"create","fields":"{\"title\":{\"value\":\"Item 44\",\"type\":\"STRING\"},\"n\":{\"value\":44,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-045","trigger":"create","fields":"{\"n\":{\"value\":45,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 45\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-046","trigger":"create","fields":"{\"n\":{\"value\":46,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 46\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-047","trigger":"create","fields":"{\"n\":{\"value\":47,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 47\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-048","trigger":"create","fields":"{\"n\":{\"value\":48,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 48\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-049","trigger":"create","fields":"{\"title\":{\"value\":\"Item 49\",\"type\":\"STRING\"},\"n\":{\"value\":49,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-050","trigger":"create","fields":"{\"title\":{\"value\":\"Item 50\",\"type\":\"STRING\"},\"n\":{\"value\":50,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-051","trigger":"create","fields":"{\"n\":{\"value\":51,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 51\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-052","trigger":"create","fields":"{\"n\":{\"value\":52,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 52\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-053","trigger":"create","fields":"{\"n\":{\"value\":53,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 53\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-054","trigger":"create","fields":"{\"title\":{\"value\":\"Item 54\",\"type\":\"STRING\"},\"n\":{\"value\":54,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-055","trigger":"create","fields":"{\"n\":{\"value\":55,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 55\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-056","trigger":"create","fields":"{\"n\":{\"value\":56,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 56\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-057","trigger":"create","fields":"{\"title\":{\"value\":\"Item 57\",\"type\":\"STRING\"},\"n\":{\"value\":57,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-058","trigger":"create","fields":"{\"title\":{\"value\":\"Item 58\",\"type\":\"STRING\"},\"n\":{\"value\":58,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-059","trigger":"create","fields":"{\"n\":{\"value\":59,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 59\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-060","trigger":"create","fields":"{\"n\":{\"value\":60,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 60\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-061","trigger":"create","fields":"{\"title\":{\"value\":\"Item 61\",\"type\":\"STRING\"},\"n\":{\"value\":61,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-062","trigger":"create","fields":"{\"title\":{\"value\":\"Item 62\",\"type\":\"STRING\"},\"n\":{\"value\":62,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-063","trigger":"create","fields":"{\"title\":{\"value\":\"Item 63\",\"type\":\"STRING\"},\"n\":{\"value\":63,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-064","trigger":"create","fields":"{\"title\":{\"value\":\"Item 64\",\"type\":\"STRING\"},\"n\":{\"value\":64,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-065","trigger":"create","fields":"{\"title\":{\"value\":\"Item 65\",\"type\":\"STRING\"},\"n\":{\"value\":65,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-066","trigger":"create","fields":"{\"title\":{\"value\":\"Item 66\",\"type\":\"STRING\"},\"n\":{\"value\":66,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-067","trigger":"create","fields":"{\"n\":{\"value\":67,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 67\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-068","trigger":"create","fields":"{\"title\":{\"value\":\"Item 68\",\"type\":\"STRING\"},\"n\":{\"value\":68,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-069","trigger":"create","fields":"{\"title\":{\"value\":\"Item 69\",\"type\":\"STRING\"},\"n\":{\"value\":69,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-070","trigger":"create","fields":"{\"title\":{\"value\":\"Item 70\",\"type\":\"STRING\"},\"n\":{\"value\":70,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-071","trigger":"create","fields":"{\"title\":{\"value\":\"Item 71\",\"type\":\"STRING\"},\"n\":{\"value\":71,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-072","trigger":"create","fields":"{\"title\":{\"value\":\"Item 72\",\"type\":\"STRING\"},\"n\":{\"value\":72,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-073","trigger":"create","fields":"{\"n\":{\"value\":73,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 73\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-074","trigger":"create","fields":"{\"title\":{\"value\":\"Item 74\",\"type\":\"STRING\"},\"n\":{\"value\":74,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-075","trigger":"create","fields":"{\"n\":{\"value\":75,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 75\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-076","trigger":"create","fields":"{\"title\":{\"value\":\"Item 76\",\"type\":\"STRING\"},\"n\":{\"value\":76,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-077","trigger":"create","fields":"{\"title\":{\"value\":\"Item 77\",\"type\":\"STRING\"},\"n\":{\"value\":77,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-078","trigger":"create","fields":"{\"title\":{\"value\":\"Item 78\",\"type\":\"STRING\"},\"n\":{\"value\":78,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-079","trigger":"create","fields":"{\"n\":{\"value\":79,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 79\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-080","trigger":"create","fields":"{\"title\":{\"value\":\"Item 80\",\"type\":\"STRING\"},\"n\":{\"value\":80,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-081","trigger":"create","fields":"{\"title\":{\"value\":\"Item 81\",\"type\":\"STRING\"},\"n\":{\"value\":81,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-082","trigger":"create","fields":"{\"n\":{\"value\":82,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 82\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-083","trigger":"create","fields":"{\"n\":{\"value\":83,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 83\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-084","trigger":"create","fields":"{\"title\":{\"value\":\"Item 84\",\"type\":\"STRING\"},\"n\":{\"value\":84,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-085","trigger":"create","fields":"{\"title\":{\"value\":\"Item 85\",\"type\":\"STRING\"},\"n\":{\"value\":85,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-086","trigger":"create","fields":"{\"title\":{\"value\":\"Item 86\",\"type\":\"STRING\"},\"n\":{\"value\":86,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-087","trigger":"create","fields":"{\"title\":{\"value\":\"Item 87\",\"type\":\"STRING\"},\"n\":{\"value\":87,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-088","trigger":"create","fields":"{\"title\":{\"value\":\"Item 88\",\"type\":\"STRING\"},\"n\":{\"value\":88,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-089","trigger":"create","fields":"{\"title\":{\"value\":\"Item 89\",\"type\":\"STRING\"},\"n\":{\"value\":89,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-090","trigger":"create","fields":"{\"title\":{\"value\":\"Item 90\",\"type\":\"STRING\"},\"n\":{\"value\":90,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-091","trigger":"create","fields":"{\"title\":{\"value\":\"Item 91\",\"type\":\"STRING\"},\"n\":{\"value\":91,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-092","trigger":"create","fields":"{\"n\":{\"value\":92,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 92\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-093","trigger":"create","fields":"{\"title\":{\"value\":\"Item 93\",\"type\":\"STRING\"},\"n\":{\"value\":93,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-094","trigger":"create","fields":"{\"n\":{\"value\":94,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 94\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-095","trigger":"create","fields":"{\"title\":{\"value\":\"Item 95\",\"type\":\"STRING\"},\"n\":{\"value\":95,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-096","trigger":"create","fields":"{\"n\":{\"value\":96,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 96\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-097","trigger":"create","fields":"{\"n\":{\"value\":97,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 97\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-098","trigger":"create","fields":"{\"n\":{\"value\":98,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 98\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-099","trigger":"create","fields":"{\"title\":{\"value\":\"Item 99\",\"type\":\"STRING\"},\"n\":{\"value\":99,\"type\":\"INT64\"}}"}],"zoneName":"Notes","databaseID":1,"zoneIsShared":false}}}}', 1795907149978);
INSERT INTO public.bus_messages OVERRIDING SYSTEM VALUE VALUES (2, '{"message":{"committed":{"_0":{"participants":[],"zoneIsShared":false,"zoneName":"Notes","databaseID":1,"database":{"containerID":"iCloud.test.stratus","ownerRecordName":"_9acf9d87197b2bceae9dec6d09a3f42d","environment":"development","scope":"private"},"zoneRowID":2,"zoneDeleted":false,"records":[{"recordType":"Item","recordName":"item-100","trigger":"create","fields":"{\"title\":{\"value\":\"Item 100\",\"type\":\"STRING\"},\"n\":{\"value\":100,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-101","trigger":"create","fields":"{\"n\":{\"value\":101,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 101\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-102","trigger":"create","fields":"{\"n\":{\"value\":102,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 102\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-103","trigger":"create","fields":"{\"n\":{\"value\":103,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 103\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-104","trigger":"create","fields":"{\"title\":{\"value\":\"Item 104\",\"type\":\"STRING\"},\"n\":{\"value\":104,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-105","trigger":"create","fields":"{\"n\":{\"value\":105,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 105\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-106","trigger":"create","fields":"{\"n\":{\"value\":106,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 106\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-107","trigger":"create","fields":"{\"n\":{\"value\":107,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 107\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-108","trigger":"create","fields":"{\"n\":{\"value\":108,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 108\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-109","trigger":"create","fields":"{\"title\":{\"value\":\"Item 109\",\"type\":\"STRING\"},\"n\":{\"value\":109,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-110","trigger":"create","fields":"{\"title\":{\"value\":\"Item 110\",\"type\":\"STRING\"},\"n\":{\"value\":110,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-111","trigger":"create","fields":"{\"title\":{\"value\":\"Item 111\",\"type\":\"STRING\"},\"n\":{\"value\":111,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-112","trigger":"create","fields":"{\"title\":{\"value\":\"Item 112\",\"type\":\"STRING\"},\"n\":{\"value\":112,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-113","trigger":"create","fields":"{\"n\":{\"value\":113,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 113\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-114","trigger":"create","fields":"{\"title\":{\"value\":\"Item 114\",\"type\":\"STRING\"},\"n\":{\"value\":114,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-115","trigger":"create","fields":"{\"title\":{\"value\":\"Item 115\",\"type\":\"STRING\"},\"n\":{\"value\":115,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-116","trigger":"create","fields":"{\"n\":{\"value\":116,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 116\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-117","trigger":"create","fields":"{\"n\":{\"value\":117,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 117\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-118","trigger":"create","fields":"{\"title\":{\"value\":\"Item 118\",\"type\":\"STRING\"},\"n\":{\"value\":118,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-119","trigger":"create","fields":"{\"n\":{\"value\":119,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 119\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-120","trigger":"create","fields":"{\"title\":{\"value\":\"Item 120\",\"type\":\"STRING\"},\"n\":{\"value\":120,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-121","trigger":"create","fields":"{\"title\":{\"value\":\"Item 121\",\"type\":\"STRING\"},\"n\":{\"value\":121,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-122","trigger":"create","fields":"{\"title\":{\"value\":\"Item 122\",\"type\":\"STRING\"},\"n\":{\"value\":122,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-123","trigger":"create","fields":"{\"n\":{\"value\":123,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 123\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-124","trigger":"create","fields":"{\"n\":{\"value\":124,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 124\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-125","trigger":"create","fields":"{\"n\":{\"value\":125,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 125\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-126","trigger":"create","fields":"{\"title\":{\"value\":\"Item 126\",\"type\":\"STRING\"},\"n\":{\"value\":126,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-127","trigger":"create","fields":"{\"n\":{\"value\":127,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 127\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-128","trigger":"create","fields":"{\"n\":{\"value\":128,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 128\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-129","trigger":"create","fields":"{\"title\":{\"value\":\"Item 129\",\"type\":\"STRING\"},\"n\":{\"value\":129,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-130","trigger":"create","fields":"{\"title\":{\"value\":\"Item 130\",\"type\":\"STRING\"},\"n\":{\"value\":130,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-131","trigger":"create","fields":"{\"title\":{\"value\":\"Item 131\",\"type\":\"STRING\"},\"n\":{\"value\":131,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-132","trigger":"create","fields":"{\"title\":{\"value\":\"Item 132\",\"type\":\"STRING\"},\"n\":{\"value\":132,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-133","trigger":"create","fields":"{\"title\":{\"value\":\"Item 133\",\"type\":\"STRING\"},\"n\":{\"value\":133,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-134","trigger":"create","fields":"{\"title\":{\"value\":\"Item 134\",\"type\":\"STRING\"},\"n\":{\"value\":134,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-135","trigger":"create","fields":"{\"n\":{\"value\":135,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 135\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-136","trigger":"create","fields":"{\"n\":{\"value\":136,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 136\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-137","trigger":"create","fields":"{\"title\":{\"value\":\"Item 137\",\"type\":\"STRING\"},\"n\":{\"value\":137,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-138","trigger":"create","fields":"{\"n\":{\"value\":138,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 138\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-139","trigger":"create","fields":"{\"n\":{\"value\":139,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 139\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-140","trigger":"create","fields":"{\"title\":{\"value\":\"Item 140\",\"type\":\"STRING\"},\"n\":{\"value\":140,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-141","trigger":"create","fields":"{\"n\":{\"value\":141,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 141\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-142","trigger":"create","fields":"{\"title\":{\"value\":\"Item 142\",\"type\":\"STRING\"},\"n\":{\"value\":142,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-143","trigger":"create","fields":"{\"n\":{\"value\":143,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 143\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-144","trigger":"create","fields":"{\"title\":{\"value\":\"Item 144\",\"type\":\"STRING\"},\"n\":{\"value\":144,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-145","trigger":"create","fields":"{\"n\":{\"value\":145,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 145\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-146","trigger":"create","fields":"{\"title\":{\"value\":\"Item 146\",\"type\":\"STRING\"},\"n\":{\"value\":146,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-147","trigger":"create","fields":"{\"n\":{\"value\":147,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 147\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-148","trigger":"create","fields":"{\"title\":{\"value\":\"Item 148\",\"type\":\"STRING\"},\"n\":{\"value\":148,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-149","trigger":"create","fields":"{\"title\":{\"value\":\"Item 149\",\"type\":\"STRING\"},\"n\":{\"value\":149,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-150","trigger":"create","fields":"{\"n\":{\"value\":150,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 150\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-151","trigger":"create","fields":"{\"n\":{\"value\":151,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 151\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-152","trigger":"create","fields":"{\"n\":{\"value\":152,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 152\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-153","trigger":"create","fields":"{\"title\":{\"value\":\"Item 153\",\"type\":\"STRING\"},\"n\":{\"value\":153,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-154","trigger":"create","fields":"{\"title\":{\"value\":\"Item 154\",\"type\":\"STRING\"},\"n\":{\"value\":154,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-155","trigger":"create","fields":"{\"n\":{\"value\":155,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 155\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-156","trigger":"create","fields":"{\"title\":{\"value\":\"Item 156\",\"type\":\"STRING\"},\"n\":{\"value\":156,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-157","trigger":"create","fields":"{\"n\":{\"value\":157,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 157\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-158","trigger":"create","fields":"{\"title\":{\"value\":\"Item 158\",\"type\":\"STRING\"},\"n\":{\"value\":158,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-159","trigger":"create","fields":"{\"title\":{\"value\":\"Item 159\",\"type\":\"STRING\"},\"n\":{\"value\":159,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-160","trigger":"create","fields":"{\"n\":{\"value\":160,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 160\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-161","trigger":"create","fields":"{\"title\":{\"value\":\"Item 161\",\"type\":\"STRING\"},\"n\":{\"value\":161,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-162","trigger":"create","fields":"{\"title\":{\"value\":\"Item 162\",\"type\":\"STRING\"},\"n\":{\"value\":162,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-163","trigger":"create","fields":"{\"title\":{\"value\":\"Item 163\",\"type\":\"STRING\"},\"n\":{\"value\":163,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-164","trigger":"create","fields":"{\"title\":{\"value\":\"Item 164\",\"type\":\"STRING\"},\"n\":{\"value\":164,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-165","trigger":"create","fields":"{\"n\":{\"value\":165,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 165\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-166","trigger":"create","fields":"{\"title\":{\"value\":\"Item 166\",\"type\":\"STRING\"},\"n\":{\"value\":166,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-167","trigger":"create","fields":"{\"title\":{\"value\":\"Item 167\",\"type\":\"STRING\"},\"n\":{\"value\":167,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-168","trigger":"create","fields":"{\"title\":{\"value\":\"Item 168\",\"type\":\"STRING\"},\"n\":{\"value\":168,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-169","trigger":"create","fields":"{\"title\":{\"value\":\"Item 169\",\"type\":\"STRING\"},\"n\":{\"value\":169,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-170","trigger":"create","fields":"{\"title\":{\"value\":\"Item 170\",\"type\":\"STRING\"},\"n\":{\"value\":170,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-171","trigger":"create","fields":"{\"n\":{\"value\":171,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 171\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-172","trigger":"create","fields":"{\"title\":{\"value\":\"Item 172\",\"type\":\"STRING\"},\"n\":{\"value\":172,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-173","trigger":"create","fields":"{\"title\":{\"value\":\"Item 173\",\"type\":\"STRING\"},\"n\":{\"value\":173,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-174","trigger":"create","fields":"{\"n\":{\"value\":174,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 174\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-175","trigger":"create","fields":"{\"title\":{\"value\":\"Item 175\",\"type\":\"STRING\"},\"n\":{\"value\":175,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-176","trigger":"create","fields":"{\"title\":{\"value\":\"Item 176\",\"type\":\"STRING\"},\"n\":{\"value\":176,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-177","trigger":"create","fields":"{\"title\":{\"value\":\"Item 177\",\"type\":\"STRING\"},\"n\":{\"value\":177,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-178","trigger":"create","fields":"{\"title\":{\"value\":\"Item 178\",\"type\":\"STRING\"},\"n\":{\"value\":178,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-179","trigger":"create","fields":"{\"title\":{\"value\":\"Item 179\",\"type\":\"STRING\"},\"n\":{\"value\":179,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-180","trigger":"create","fields":"{\"title\":{\"value\":\"Item 180\",\"type\":\"STRING\"},\"n\":{\"value\":180,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-181","trigger":"create","fields":"{\"n\":{\"value\":181,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 181\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-182","trigger":"create","fields":"{\"title\":{\"value\":\"Item 182\",\"type\":\"STRING\"},\"n\":{\"value\":182,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-183","trigger":"create","fields":"{\"n\":{\"value\":183,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 183\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-184","trigger":"create","fields":"{\"n\":{\"value\":184,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 184\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-185","trigger":"create","fields":"{\"title\":{\"value\":\"Item 185\",\"type\":\"STRING\"},\"n\":{\"value\":185,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-186","trigger":"create","fields":"{\"title\":{\"value\":\"Item 186\",\"type\":\"STRING\"},\"n\":{\"value\":186,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-187","trigger":"create","fields":"{\"title\":{\"value\":\"Item 187\",\"type\":\"STRING\"},\"n\":{\"value\":187,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-188","trigger":"create","fields":"{\"title\":{\"value\":\"Item 188\",\"type\":\"STRING\"},\"n\":{\"value\":188,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-189","trigger":"create","fields":"{\"title\":{\"value\":\"Item 189\",\"type\":\"STRING\"},\"n\":{\"value\":189,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-190","trigger":"create","fields":"{\"n\":{\"value\":190,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 190\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-191","trigger":"create","fields":"{\"n\":{\"value\":191,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 191\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-192","trigger":"create","fields":"{\"title\":{\"value\":\"Item 192\",\"type\":\"STRING\"},\"n\":{\"value\":192,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-193","trigger":"create","fields":"{\"title\":{\"value\":\"Item 193\",\"type\":\"STRING\"},\"n\":{\"value\":193,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-194","trigger":"create","fields":"{\"title\":{\"value\":\"Item 194\",\"type\":\"STRING\"},\"n\":{\"value\":194,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-195","trigger":"create","fields":"{\"n\":{\"value\":195,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 195\",\"type\":\"STRING\"}}"},{"recordType":"Item","recordName":"item-196","trigger":"create","fields":"{\"title\":{\"value\":\"Item 196\",\"type\":\"STRING\"},\"n\":{\"value\":196,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-197","trigger":"create","fields":"{\"title\":{\"value\":\"Item 197\",\"type\":\"STRING\"},\"n\":{\"value\":197,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-198","trigger":"create","fields":"{\"title\":{\"value\":\"Item 198\",\"type\":\"STRING\"},\"n\":{\"value\":198,\"type\":\"INT64\"}}"},{"recordType":"Item","recordName":"item-199","trigger":"create","fields":"{\"n\":{\"value\":199,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 199\",\"type\":\"STRING\"}}"}]}}},"from":"9A252716-8D2F-4416-A277-FBEB3A600E60"}', 1795907150039);
INSERT INTO public.bus_messages OVERRIDING SYSTEM VALUE VALUES (3, '{"from":"9A252716-8D2F-4416-A277-FBEB3A600E60","message":{"committed":{"_0":{"database":{"environment":"development","scope":"private","ownerRecordName":"_9acf9d87197b2bceae9dec6d09a3f42d","containerID":"iCloud.test.stratus"},"zoneRowID":2,"zoneDeleted":false,"participants":[],"records":[{"trigger":"create","recordName":"item-200","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 200\",\"type\":\"STRING\"},\"n\":{\"value\":200,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-201","recordType":"Item","fields":"{\"n\":{\"value\":201,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 201\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-202","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 202\",\"type\":\"STRING\"},\"n\":{\"value\":202,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-203","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 203\",\"type\":\"STRING\"},\"n\":{\"value\":203,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-204","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 204\",\"type\":\"STRING\"},\"n\":{\"value\":204,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-205","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 205\",\"type\":\"STRING\"},\"n\":{\"value\":205,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-206","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 206\",\"type\":\"STRING\"},\"n\":{\"value\":206,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-207","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 207\",\"type\":\"STRING\"},\"n\":{\"value\":207,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-208","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 208\",\"type\":\"STRING\"},\"n\":{\"value\":208,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-209","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 209\",\"type\":\"STRING\"},\"n\":{\"value\":209,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-210","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 210\",\"type\":\"STRING\"},\"n\":{\"value\":210,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-211","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 211\",\"type\":\"STRING\"},\"n\":{\"value\":211,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-212","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 212\",\"type\":\"STRING\"},\"n\":{\"value\":212,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-213","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 213\",\"type\":\"STRING\"},\"n\":{\"value\":213,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-214","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 214\",\"type\":\"STRING\"},\"n\":{\"value\":214,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-215","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 215\",\"type\":\"STRING\"},\"n\":{\"value\":215,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-216","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 216\",\"type\":\"STRING\"},\"n\":{\"value\":216,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-217","recordType":"Item","fields":"{\"n\":{\"value\":217,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 217\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-218","recordType":"Item","fields":"{\"n\":{\"value\":218,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 218\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-219","recordType":"Item","fields":"{\"n\":{\"value\":219,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 219\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-220","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 220\",\"type\":\"STRING\"},\"n\":{\"value\":220,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-221","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 221\",\"type\":\"STRING\"},\"n\":{\"value\":221,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-222","recordType":"Item","fields":"{\"n\":{\"value\":222,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 222\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-223","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 223\",\"type\":\"STRING\"},\"n\":{\"value\":223,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-224","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 224\",\"type\":\"STRING\"},\"n\":{\"value\":224,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-225","recordType":"Item","fields":"{\"n\":{\"value\":225,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 225\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-226","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 226\",\"type\":\"STRING\"},\"n\":{\"value\":226,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-227","recordType":"Item","fields":"{\"n\":{\"value\":227,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 227\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-228","recordType":"Item","fields":"{\"n\":{\"value\":228,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 228\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-229","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 229\",\"type\":\"STRING\"},\"n\":{\"value\":229,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-230","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 230\",\"type\":\"STRING\"},\"n\":{\"value\":230,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-231","recordType":"Item","fields":"{\"n\":{\"value\":231,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 231\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-232","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 232\",\"type\":\"STRING\"},\"n\":{\"value\":232,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-233","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 233\",\"type\":\"STRING\"},\"n\":{\"value\":233,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-234","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 234\",\"type\":\"STRING\"},\"n\":{\"value\":234,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-235","recordType":"Item","fields":"{\"n\":{\"value\":235,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 235\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-236","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 236\",\"type\":\"STRING\"},\"n\":{\"value\":236,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-237","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 237\",\"type\":\"STRING\"},\"n\":{\"value\":237,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-238","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 238\",\"type\":\"STRING\"},\"n\":{\"value\":238,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-239","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 239\",\"type\":\"STRING\"},\"n\":{\"value\":239,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-240","recordType":"Item","fields":"{\"n\":{\"value\":240,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 240\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-241","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 241\",\"type\":\"STRING\"},\"n\":{\"value\":241,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-242","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 242\",\"type\":\"STRING\"},\"n\":{\"value\":242,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-243","recordType":"Item","fields":"{\"n\":{\"value\":243,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 243\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-244","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 244\",\"type\":\"STRING\"},\"n\":{\"value\":244,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-245","recordType":"Item","fields":"{\"n\":{\"value\":245,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 245\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-246","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 246\",\"type\":\"STRING\"},\"n\":{\"value\":246,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-247","recordType":"Item","fields":"{\"n\":{\"value\":247,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 247\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-248","recordType":"Item","fields":"{\"n\":{\"value\":248,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 248\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-249","recordType":"Item","fields":"{\"n\":{\"value\":249,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 249\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-250","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 250\",\"type\":\"STRING\"},\"n\":{\"value\":250,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-251","recordType":"Item","fields":"{\"n\":{\"value\":251,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 251\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-252","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 252\",\"type\":\"STRING\"},\"n\":{\"value\":252,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-253","recordType":"Item","fields":"{\"n\":{\"value\":253,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 253\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-254","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 254\",\"type\":\"STRING\"},\"n\":{\"value\":254,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-255","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 255\",\"type\":\"STRING\"},\"n\":{\"value\":255,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-256","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 256\",\"type\":\"STRING\"},\"n\":{\"value\":256,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-257","recordType":"Item","fields":"{\"n\":{\"value\":257,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 257\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-258","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 258\",\"type\":\"STRING\"},\"n\":{\"value\":258,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-259","recordType":"Item","fields":"{\"n\":{\"value\":259,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 259\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-260","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 260\",\"type\":\"STRING\"},\"n\":{\"value\":260,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-261","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 261\",\"type\":\"STRING\"},\"n\":{\"value\":261,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-262","recordType":"Item","fields":"{\"n\":{\"value\":262,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 262\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-263","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 263\",\"type\":\"STRING\"},\"n\":{\"value\":263,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-264","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 264\",\"type\":\"STRING\"},\"n\":{\"value\":264,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-265","recordType":"Item","fields":"{\"n\":{\"value\":265,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 265\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-266","recordType":"Item","fields":"{\"n\":{\"value\":266,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 266\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-267","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 267\",\"type\":\"STRING\"},\"n\":{\"value\":267,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-268","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 268\",\"type\":\"STRING\"},\"n\":{\"value\":268,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-269","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 269\",\"type\":\"STRING\"},\"n\":{\"value\":269,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-270","recordType":"Item","fields":"{\"n\":{\"value\":270,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 270\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-271","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 271\",\"type\":\"STRING\"},\"n\":{\"value\":271,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-272","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 272\",\"type\":\"STRING\"},\"n\":{\"value\":272,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-273","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 273\",\"type\":\"STRING\"},\"n\":{\"value\":273,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-274","recordType":"Item","fields":"{\"n\":{\"value\":274,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 274\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-275","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 275\",\"type\":\"STRING\"},\"n\":{\"value\":275,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-276","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 276\",\"type\":\"STRING\"},\"n\":{\"value\":276,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-277","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 277\",\"type\":\"STRING\"},\"n\":{\"value\":277,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-278","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 278\",\"type\":\"STRING\"},\"n\":{\"value\":278,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-279","recordType":"Item","fields":"{\"n\":{\"value\":279,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 279\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-280","recordType":"Item","fields":"{\"n\":{\"value\":280,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 280\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-281","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 281\",\"type\":\"STRING\"},\"n\":{\"value\":281,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-282","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 282\",\"type\":\"STRING\"},\"n\":{\"value\":282,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-283","recordType":"Item","fields":"{\"n\":{\"value\":283,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 283\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-284","recordType":"Item","fields":"{\"n\":{\"value\":284,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 284\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-285","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 285\",\"type\":\"STRING\"},\"n\":{\"value\":285,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-286","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 286\",\"type\":\"STRING\"},\"n\":{\"value\":286,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-287","recordType":"Item","fields":"{\"n\":{\"value\":287,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 287\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-288","recordType":"Item","fields":"{\"n\":{\"value\":288,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 288\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-289","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 289\",\"type\":\"STRING\"},\"n\":{\"value\":289,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-290","recordType":"Item","fields":"{\"n\":{\"value\":290,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 290\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-291","recordType":"Item","fields":"{\"n\":{\"value\":291,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 291\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-292","recordType":"Item","fields":"{\"n\":{\"value\":292,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 292\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-293","recordType":"Item","fields":"{\"n\":{\"value\":293,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 293\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-294","recordType":"Item","fields":"{\"n\":{\"value\":294,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 294\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-295","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 295\",\"type\":\"STRING\"},\"n\":{\"value\":295,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-296","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 296\",\"type\":\"STRING\"},\"n\":{\"value\":296,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-297","recordType":"Item","fields":"{\"title\":{\"value\":\"Item 297\",\"type\":\"STRING\"},\"n\":{\"value\":297,\"type\":\"INT64\"}}"},{"trigger":"create","recordName":"item-298","recordType":"Item","fields":"{\"n\":{\"value\":298,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 298\",\"type\":\"STRING\"}}"},{"trigger":"create","recordName":"item-299","recordType":"Item","fields":"{\"n\":{\"value\":299,\"type\":\"INT64\"},\"title\":{\"value\":\"Item 299\",\"type\":\"STRING\"}}"}],"zoneName":"Notes","databaseID":1,"zoneIsShared":false}}}}', 1795907150110);


--
-- Data for Name: change_sequence; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.change_sequence VALUES (1, 309);


--
-- Data for Name: console_sessions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: containers; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.containers VALUES ('iCloud.test.stratus', '3566c9ab467c8caa77db07b19bfef58f010bb2f620d63508f25bbe6335cb45d4', 1795907148813, '');


--
-- Data for Name: databases; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.databases VALUES (1, 'iCloud.test.stratus', 'development', 'private', '_9acf9d87197b2bceae9dec6d09a3f42d', 0);
INSERT INTO public.databases VALUES (2, 'iCloud.test.stratus', 'development', 'public', '', 0);


--
-- Data for Name: email_codes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: job_leases; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: password_reset_codes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: rate_buckets; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.rate_buckets VALUES ('signup|127.0.0.1', 199, 1795907149078, true);


--
-- Data for Name: record_index; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: record_references; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.record_references VALUES (2, 'note-1', 'note-2', 'DELETE_SELF');


--
-- Data for Name: records; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.records VALUES (2, 'note-1', 'Note', '5', '\x7b227469746c65223a7b2276616c7565223a225772697474656e20696e207265636f726420666f726d61742031222c2274797065223a22535452494e47227d2c2266696c65223a7b2276616c7565223a7b2266696c65436865636b73756d223a2243477535636e49374957454f474b4963686243567562536e2f6339755076443646486c796665593267784d3d222c2273697a65223a34387d2c2274797065223a2241535345544944227d2c22636f756e74223a7b2276616c7565223a34332c2274797065223a22494e543634227d2c2274616773223a7b2276616c7565223a5b2261222c2262225d2c2274797065223a22535452494e475f4c495354227d7d', 1795907149832, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149883, '_9acf9d87197b2bceae9dec6d09a3f42d', 'laptop', NULL, NULL, 5, false, NULL);
INSERT INTO public.records VALUES (2, 'note-2', 'Note', '6', '\x7b227469746c65223a7b2276616c7565223a22506f696e7473206174206e6f74652d31222c2274797065223a22535452494e47227d2c2261626f7574223a7b2276616c7565223a7b227265636f72644e616d65223a226e6f74652d31222c22616374696f6e223a2244454c4554455f53454c46227d2c2274797065223a225245464552454e4345227d7d', 1795907149883, '_9acf9d87197b2bceae9dec6d09a3f42d', 'laptop', 1795907149883, '_9acf9d87197b2bceae9dec6d09a3f42d', 'laptop', NULL, NULL, 6, false, NULL);
INSERT INTO public.records VALUES (2, 'gone', 'Note', '7', '\x7b7d', 1795907149832, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149883, '_9acf9d87197b2bceae9dec6d09a3f42d', 'laptop', NULL, NULL, 7, true, NULL);
INSERT INTO public.records VALUES (2, 'item-000', 'Item', '8', '\x7b227469746c65223a7b2276616c7565223a224974656d2030222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a302c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 8, false, NULL);
INSERT INTO public.records VALUES (2, 'item-001', 'Item', '9', '\x7b227469746c65223a7b2276616c7565223a224974656d2031222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a312c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 9, false, NULL);
INSERT INTO public.records VALUES (2, 'item-002', 'Item', 'a', '\x7b227469746c65223a7b2276616c7565223a224974656d2032222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a322c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 10, false, NULL);
INSERT INTO public.records VALUES (2, 'item-003', 'Item', 'b', '\x7b227469746c65223a7b2276616c7565223a224974656d2033222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a332c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 11, false, NULL);
INSERT INTO public.records VALUES (2, 'item-004', 'Item', 'c', '\x7b226e223a7b2276616c7565223a342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d2034222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 12, false, NULL);
INSERT INTO public.records VALUES (2, 'item-005', 'Item', 'd', '\x7b226e223a7b2276616c7565223a352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d2035222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 13, false, NULL);
INSERT INTO public.records VALUES (2, 'item-006', 'Item', 'e', '\x7b226e223a7b2276616c7565223a362c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d2036222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 14, false, NULL);
INSERT INTO public.records VALUES (2, 'item-007', 'Item', 'f', '\x7b226e223a7b2276616c7565223a372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d2037222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 15, false, NULL);
INSERT INTO public.records VALUES (2, 'item-008', 'Item', 'g', '\x7b227469746c65223a7b2276616c7565223a224974656d2038222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a382c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 16, false, NULL);
INSERT INTO public.records VALUES (2, 'item-009', 'Item', 'h', '\x7b226e223a7b2276616c7565223a392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d2039222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 17, false, NULL);
INSERT INTO public.records VALUES (2, 'item-010', 'Item', 'i', '\x7b227469746c65223a7b2276616c7565223a224974656d203130222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a31302c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 18, false, NULL);
INSERT INTO public.records VALUES (2, 'item-011', 'Item', 'j', '\x7b227469746c65223a7b2276616c7565223a224974656d203131222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a31312c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 19, false, NULL);
INSERT INTO public.records VALUES (2, 'item-012', 'Item', 'k', '\x7b227469746c65223a7b2276616c7565223a224974656d203132222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a31322c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 20, false, NULL);
INSERT INTO public.records VALUES (2, 'item-013', 'Item', 'l', '\x7b227469746c65223a7b2276616c7565223a224974656d203133222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a31332c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 21, false, NULL);
INSERT INTO public.records VALUES (2, 'item-014', 'Item', 'm', '\x7b226e223a7b2276616c7565223a31342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203134222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 22, false, NULL);
INSERT INTO public.records VALUES (2, 'item-015', 'Item', 'n', '\x7b227469746c65223a7b2276616c7565223a224974656d203135222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a31352c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 23, false, NULL);
INSERT INTO public.records VALUES (2, 'item-016', 'Item', 'o', '\x7b226e223a7b2276616c7565223a31362c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203136222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 24, false, NULL);
INSERT INTO public.records VALUES (2, 'item-017', 'Item', 'p', '\x7b227469746c65223a7b2276616c7565223a224974656d203137222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a31372c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 25, false, NULL);
INSERT INTO public.records VALUES (2, 'item-018', 'Item', 'q', '\x7b227469746c65223a7b2276616c7565223a224974656d203138222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a31382c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 26, false, NULL);
INSERT INTO public.records VALUES (2, 'item-019', 'Item', 'r', '\x7b226e223a7b2276616c7565223a31392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203139222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 27, false, NULL);
INSERT INTO public.records VALUES (2, 'item-020', 'Item', 's', '\x7b227469746c65223a7b2276616c7565223a224974656d203230222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a32302c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 28, false, NULL);
INSERT INTO public.records VALUES (2, 'item-021', 'Item', 't', '\x7b227469746c65223a7b2276616c7565223a224974656d203231222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a32312c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 29, false, NULL);
INSERT INTO public.records VALUES (2, 'item-022', 'Item', 'u', '\x7b226e223a7b2276616c7565223a32322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203232222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 30, false, NULL);
INSERT INTO public.records VALUES (2, 'item-023', 'Item', 'v', '\x7b226e223a7b2276616c7565223a32332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203233222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 31, false, NULL);
INSERT INTO public.records VALUES (2, 'item-024', 'Item', 'w', '\x7b226e223a7b2276616c7565223a32342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203234222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 32, false, NULL);
INSERT INTO public.records VALUES (2, 'item-025', 'Item', 'x', '\x7b227469746c65223a7b2276616c7565223a224974656d203235222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a32352c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 33, false, NULL);
INSERT INTO public.records VALUES (2, 'item-026', 'Item', 'y', '\x7b227469746c65223a7b2276616c7565223a224974656d203236222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a32362c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 34, false, NULL);
INSERT INTO public.records VALUES (2, 'item-027', 'Item', 'z', '\x7b227469746c65223a7b2276616c7565223a224974656d203237222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a32372c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 35, false, NULL);
INSERT INTO public.records VALUES (2, 'item-028', 'Item', '10', '\x7b226e223a7b2276616c7565223a32382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203238222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 36, false, NULL);
INSERT INTO public.records VALUES (2, 'item-029', 'Item', '11', '\x7b227469746c65223a7b2276616c7565223a224974656d203239222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a32392c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 37, false, NULL);
INSERT INTO public.records VALUES (2, 'item-030', 'Item', '12', '\x7b227469746c65223a7b2276616c7565223a224974656d203330222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a33302c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 38, false, NULL);
INSERT INTO public.records VALUES (2, 'item-031', 'Item', '13', '\x7b226e223a7b2276616c7565223a33312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203331222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 39, false, NULL);
INSERT INTO public.records VALUES (2, 'item-032', 'Item', '14', '\x7b226e223a7b2276616c7565223a33322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203332222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 40, false, NULL);
INSERT INTO public.records VALUES (2, 'item-033', 'Item', '15', '\x7b226e223a7b2276616c7565223a33332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203333222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 41, false, NULL);
INSERT INTO public.records VALUES (2, 'item-034', 'Item', '16', '\x7b226e223a7b2276616c7565223a33342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203334222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 42, false, NULL);
INSERT INTO public.records VALUES (2, 'item-035', 'Item', '17', '\x7b226e223a7b2276616c7565223a33352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203335222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 43, false, NULL);
INSERT INTO public.records VALUES (2, 'item-036', 'Item', '18', '\x7b227469746c65223a7b2276616c7565223a224974656d203336222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a33362c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 44, false, NULL);
INSERT INTO public.records VALUES (2, 'item-037', 'Item', '19', '\x7b226e223a7b2276616c7565223a33372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203337222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 45, false, NULL);
INSERT INTO public.records VALUES (2, 'item-038', 'Item', '1a', '\x7b227469746c65223a7b2276616c7565223a224974656d203338222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a33382c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 46, false, NULL);
INSERT INTO public.records VALUES (2, 'item-039', 'Item', '1b', '\x7b227469746c65223a7b2276616c7565223a224974656d203339222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a33392c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 47, false, NULL);
INSERT INTO public.records VALUES (2, 'item-040', 'Item', '1c', '\x7b226e223a7b2276616c7565223a34302c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203430222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 48, false, NULL);
INSERT INTO public.records VALUES (2, 'item-041', 'Item', '1d', '\x7b227469746c65223a7b2276616c7565223a224974656d203431222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a34312c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 49, false, NULL);
INSERT INTO public.records VALUES (2, 'item-042', 'Item', '1e', '\x7b227469746c65223a7b2276616c7565223a224974656d203432222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a34322c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 50, false, NULL);
INSERT INTO public.records VALUES (2, 'item-043', 'Item', '1f', '\x7b227469746c65223a7b2276616c7565223a224974656d203433222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a34332c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 51, false, NULL);
INSERT INTO public.records VALUES (2, 'item-044', 'Item', '1g', '\x7b227469746c65223a7b2276616c7565223a224974656d203434222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a34342c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 52, false, NULL);
INSERT INTO public.records VALUES (2, 'item-045', 'Item', '1h', '\x7b226e223a7b2276616c7565223a34352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203435222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 53, false, NULL);
INSERT INTO public.records VALUES (2, 'item-046', 'Item', '1i', '\x7b226e223a7b2276616c7565223a34362c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203436222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 54, false, NULL);
INSERT INTO public.records VALUES (2, 'item-047', 'Item', '1j', '\x7b226e223a7b2276616c7565223a34372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203437222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 55, false, NULL);
INSERT INTO public.records VALUES (2, 'item-048', 'Item', '1k', '\x7b226e223a7b2276616c7565223a34382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203438222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 56, false, NULL);
INSERT INTO public.records VALUES (2, 'item-049', 'Item', '1l', '\x7b227469746c65223a7b2276616c7565223a224974656d203439222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a34392c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 57, false, NULL);
INSERT INTO public.records VALUES (2, 'item-050', 'Item', '1m', '\x7b227469746c65223a7b2276616c7565223a224974656d203530222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a35302c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 58, false, NULL);
INSERT INTO public.records VALUES (2, 'item-051', 'Item', '1n', '\x7b226e223a7b2276616c7565223a35312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203531222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 59, false, NULL);
INSERT INTO public.records VALUES (2, 'item-052', 'Item', '1o', '\x7b226e223a7b2276616c7565223a35322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203532222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 60, false, NULL);
INSERT INTO public.records VALUES (2, 'item-053', 'Item', '1p', '\x7b226e223a7b2276616c7565223a35332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203533222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 61, false, NULL);
INSERT INTO public.records VALUES (2, 'item-054', 'Item', '1q', '\x7b227469746c65223a7b2276616c7565223a224974656d203534222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a35342c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 62, false, NULL);
INSERT INTO public.records VALUES (2, 'item-055', 'Item', '1r', '\x7b226e223a7b2276616c7565223a35352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203535222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 63, false, NULL);
INSERT INTO public.records VALUES (2, 'item-056', 'Item', '1s', '\x7b226e223a7b2276616c7565223a35362c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203536222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 64, false, NULL);
INSERT INTO public.records VALUES (2, 'item-057', 'Item', '1t', '\x7b227469746c65223a7b2276616c7565223a224974656d203537222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a35372c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 65, false, NULL);
INSERT INTO public.records VALUES (2, 'item-058', 'Item', '1u', '\x7b227469746c65223a7b2276616c7565223a224974656d203538222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a35382c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 66, false, NULL);
INSERT INTO public.records VALUES (2, 'item-059', 'Item', '1v', '\x7b226e223a7b2276616c7565223a35392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203539222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 67, false, NULL);
INSERT INTO public.records VALUES (2, 'item-060', 'Item', '1w', '\x7b226e223a7b2276616c7565223a36302c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203630222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 68, false, NULL);
INSERT INTO public.records VALUES (2, 'item-061', 'Item', '1x', '\x7b227469746c65223a7b2276616c7565223a224974656d203631222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a36312c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 69, false, NULL);
INSERT INTO public.records VALUES (2, 'item-062', 'Item', '1y', '\x7b227469746c65223a7b2276616c7565223a224974656d203632222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a36322c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 70, false, NULL);
INSERT INTO public.records VALUES (2, 'item-063', 'Item', '1z', '\x7b227469746c65223a7b2276616c7565223a224974656d203633222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a36332c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 71, false, NULL);
INSERT INTO public.records VALUES (2, 'item-064', 'Item', '20', '\x7b227469746c65223a7b2276616c7565223a224974656d203634222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a36342c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 72, false, NULL);
INSERT INTO public.records VALUES (2, 'item-065', 'Item', '21', '\x7b227469746c65223a7b2276616c7565223a224974656d203635222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a36352c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 73, false, NULL);
INSERT INTO public.records VALUES (2, 'item-066', 'Item', '22', '\x7b227469746c65223a7b2276616c7565223a224974656d203636222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a36362c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 74, false, NULL);
INSERT INTO public.records VALUES (2, 'item-067', 'Item', '23', '\x7b226e223a7b2276616c7565223a36372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203637222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 75, false, NULL);
INSERT INTO public.records VALUES (2, 'item-068', 'Item', '24', '\x7b227469746c65223a7b2276616c7565223a224974656d203638222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a36382c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 76, false, NULL);
INSERT INTO public.records VALUES (2, 'item-069', 'Item', '25', '\x7b227469746c65223a7b2276616c7565223a224974656d203639222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a36392c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 77, false, NULL);
INSERT INTO public.records VALUES (2, 'item-070', 'Item', '26', '\x7b227469746c65223a7b2276616c7565223a224974656d203730222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a37302c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 78, false, NULL);
INSERT INTO public.records VALUES (2, 'item-071', 'Item', '27', '\x7b227469746c65223a7b2276616c7565223a224974656d203731222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a37312c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 79, false, NULL);
INSERT INTO public.records VALUES (2, 'item-072', 'Item', '28', '\x7b227469746c65223a7b2276616c7565223a224974656d203732222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a37322c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 80, false, NULL);
INSERT INTO public.records VALUES (2, 'item-073', 'Item', '29', '\x7b226e223a7b2276616c7565223a37332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203733222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 81, false, NULL);
INSERT INTO public.records VALUES (2, 'item-074', 'Item', '2a', '\x7b227469746c65223a7b2276616c7565223a224974656d203734222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a37342c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 82, false, NULL);
INSERT INTO public.records VALUES (2, 'item-075', 'Item', '2b', '\x7b226e223a7b2276616c7565223a37352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203735222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 83, false, NULL);
INSERT INTO public.records VALUES (2, 'item-076', 'Item', '2c', '\x7b227469746c65223a7b2276616c7565223a224974656d203736222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a37362c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 84, false, NULL);
INSERT INTO public.records VALUES (2, 'item-077', 'Item', '2d', '\x7b227469746c65223a7b2276616c7565223a224974656d203737222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a37372c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 85, false, NULL);
INSERT INTO public.records VALUES (2, 'item-078', 'Item', '2e', '\x7b227469746c65223a7b2276616c7565223a224974656d203738222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a37382c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 86, false, NULL);
INSERT INTO public.records VALUES (2, 'item-079', 'Item', '2f', '\x7b226e223a7b2276616c7565223a37392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203739222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 87, false, NULL);
INSERT INTO public.records VALUES (2, 'item-080', 'Item', '2g', '\x7b227469746c65223a7b2276616c7565223a224974656d203830222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a38302c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 88, false, NULL);
INSERT INTO public.records VALUES (2, 'item-081', 'Item', '2h', '\x7b227469746c65223a7b2276616c7565223a224974656d203831222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a38312c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 89, false, NULL);
INSERT INTO public.records VALUES (2, 'item-082', 'Item', '2i', '\x7b226e223a7b2276616c7565223a38322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203832222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 90, false, NULL);
INSERT INTO public.records VALUES (2, 'item-083', 'Item', '2j', '\x7b226e223a7b2276616c7565223a38332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203833222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 91, false, NULL);
INSERT INTO public.records VALUES (2, 'item-084', 'Item', '2k', '\x7b227469746c65223a7b2276616c7565223a224974656d203834222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a38342c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 92, false, NULL);
INSERT INTO public.records VALUES (2, 'item-085', 'Item', '2l', '\x7b227469746c65223a7b2276616c7565223a224974656d203835222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a38352c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 93, false, NULL);
INSERT INTO public.records VALUES (2, 'item-086', 'Item', '2m', '\x7b227469746c65223a7b2276616c7565223a224974656d203836222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a38362c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 94, false, NULL);
INSERT INTO public.records VALUES (2, 'item-087', 'Item', '2n', '\x7b227469746c65223a7b2276616c7565223a224974656d203837222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a38372c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 95, false, NULL);
INSERT INTO public.records VALUES (2, 'item-088', 'Item', '2o', '\x7b227469746c65223a7b2276616c7565223a224974656d203838222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a38382c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 96, false, NULL);
INSERT INTO public.records VALUES (2, 'item-089', 'Item', '2p', '\x7b227469746c65223a7b2276616c7565223a224974656d203839222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a38392c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 97, false, NULL);
INSERT INTO public.records VALUES (2, 'item-090', 'Item', '2q', '\x7b227469746c65223a7b2276616c7565223a224974656d203930222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a39302c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 98, false, NULL);
INSERT INTO public.records VALUES (2, 'item-091', 'Item', '2r', '\x7b227469746c65223a7b2276616c7565223a224974656d203931222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a39312c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 99, false, NULL);
INSERT INTO public.records VALUES (2, 'item-092', 'Item', '2s', '\x7b226e223a7b2276616c7565223a39322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203932222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 100, false, NULL);
INSERT INTO public.records VALUES (2, 'item-093', 'Item', '2t', '\x7b227469746c65223a7b2276616c7565223a224974656d203933222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a39332c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 101, false, NULL);
INSERT INTO public.records VALUES (2, 'item-094', 'Item', '2u', '\x7b226e223a7b2276616c7565223a39342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203934222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 102, false, NULL);
INSERT INTO public.records VALUES (2, 'item-095', 'Item', '2v', '\x7b227469746c65223a7b2276616c7565223a224974656d203935222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a39352c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 103, false, NULL);
INSERT INTO public.records VALUES (2, 'item-096', 'Item', '2w', '\x7b226e223a7b2276616c7565223a39362c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203936222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 104, false, NULL);
INSERT INTO public.records VALUES (2, 'item-097', 'Item', '2x', '\x7b226e223a7b2276616c7565223a39372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203937222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 105, false, NULL);
INSERT INTO public.records VALUES (2, 'item-098', 'Item', '2y', '\x7b226e223a7b2276616c7565223a39382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d203938222c2274797065223a22535452494e47227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 106, false, NULL);
INSERT INTO public.records VALUES (2, 'item-099', 'Item', '2z', '\x7b227469746c65223a7b2276616c7565223a224974656d203939222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a39392c2274797065223a22494e543634227d7d', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149931, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 107, false, NULL);
INSERT INTO public.records VALUES (2, 'item-100', 'Item', '30', '\x7b227469746c65223a7b2276616c7565223a224974656d20313030222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3130302c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 108, false, NULL);
INSERT INTO public.records VALUES (2, 'item-101', 'Item', '31', '\x7b226e223a7b2276616c7565223a3130312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313031222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 109, false, NULL);
INSERT INTO public.records VALUES (2, 'item-102', 'Item', '32', '\x7b226e223a7b2276616c7565223a3130322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313032222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 110, false, NULL);
INSERT INTO public.records VALUES (2, 'item-103', 'Item', '33', '\x7b226e223a7b2276616c7565223a3130332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313033222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 111, false, NULL);
INSERT INTO public.records VALUES (2, 'item-104', 'Item', '34', '\x7b227469746c65223a7b2276616c7565223a224974656d20313034222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3130342c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 112, false, NULL);
INSERT INTO public.records VALUES (2, 'item-105', 'Item', '35', '\x7b226e223a7b2276616c7565223a3130352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313035222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 113, false, NULL);
INSERT INTO public.records VALUES (2, 'item-106', 'Item', '36', '\x7b226e223a7b2276616c7565223a3130362c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313036222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 114, false, NULL);
INSERT INTO public.records VALUES (2, 'item-107', 'Item', '37', '\x7b226e223a7b2276616c7565223a3130372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313037222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 115, false, NULL);
INSERT INTO public.records VALUES (2, 'item-108', 'Item', '38', '\x7b226e223a7b2276616c7565223a3130382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313038222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 116, false, NULL);
INSERT INTO public.records VALUES (2, 'item-109', 'Item', '39', '\x7b227469746c65223a7b2276616c7565223a224974656d20313039222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3130392c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 117, false, NULL);
INSERT INTO public.records VALUES (2, 'item-110', 'Item', '3a', '\x7b227469746c65223a7b2276616c7565223a224974656d20313130222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3131302c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 118, false, NULL);
INSERT INTO public.records VALUES (2, 'item-111', 'Item', '3b', '\x7b227469746c65223a7b2276616c7565223a224974656d20313131222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3131312c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 119, false, NULL);
INSERT INTO public.records VALUES (2, 'item-112', 'Item', '3c', '\x7b227469746c65223a7b2276616c7565223a224974656d20313132222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3131322c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 120, false, NULL);
INSERT INTO public.records VALUES (2, 'item-113', 'Item', '3d', '\x7b226e223a7b2276616c7565223a3131332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313133222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 121, false, NULL);
INSERT INTO public.records VALUES (2, 'item-114', 'Item', '3e', '\x7b227469746c65223a7b2276616c7565223a224974656d20313134222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3131342c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 122, false, NULL);
INSERT INTO public.records VALUES (2, 'item-115', 'Item', '3f', '\x7b227469746c65223a7b2276616c7565223a224974656d20313135222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3131352c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 123, false, NULL);
INSERT INTO public.records VALUES (2, 'item-116', 'Item', '3g', '\x7b226e223a7b2276616c7565223a3131362c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313136222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 124, false, NULL);
INSERT INTO public.records VALUES (2, 'item-117', 'Item', '3h', '\x7b226e223a7b2276616c7565223a3131372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313137222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 125, false, NULL);
INSERT INTO public.records VALUES (2, 'item-118', 'Item', '3i', '\x7b227469746c65223a7b2276616c7565223a224974656d20313138222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3131382c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 126, false, NULL);
INSERT INTO public.records VALUES (2, 'item-119', 'Item', '3j', '\x7b226e223a7b2276616c7565223a3131392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313139222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 127, false, NULL);
INSERT INTO public.records VALUES (2, 'item-120', 'Item', '3k', '\x7b227469746c65223a7b2276616c7565223a224974656d20313230222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3132302c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 128, false, NULL);
INSERT INTO public.records VALUES (2, 'item-121', 'Item', '3l', '\x7b227469746c65223a7b2276616c7565223a224974656d20313231222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3132312c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 129, false, NULL);
INSERT INTO public.records VALUES (2, 'item-122', 'Item', '3m', '\x7b227469746c65223a7b2276616c7565223a224974656d20313232222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3132322c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 130, false, NULL);
INSERT INTO public.records VALUES (2, 'item-123', 'Item', '3n', '\x7b226e223a7b2276616c7565223a3132332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313233222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 131, false, NULL);
INSERT INTO public.records VALUES (2, 'item-124', 'Item', '3o', '\x7b226e223a7b2276616c7565223a3132342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313234222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 132, false, NULL);
INSERT INTO public.records VALUES (2, 'item-125', 'Item', '3p', '\x7b226e223a7b2276616c7565223a3132352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313235222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 133, false, NULL);
INSERT INTO public.records VALUES (2, 'item-126', 'Item', '3q', '\x7b227469746c65223a7b2276616c7565223a224974656d20313236222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3132362c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 134, false, NULL);
INSERT INTO public.records VALUES (2, 'item-127', 'Item', '3r', '\x7b226e223a7b2276616c7565223a3132372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313237222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 135, false, NULL);
INSERT INTO public.records VALUES (2, 'item-128', 'Item', '3s', '\x7b226e223a7b2276616c7565223a3132382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313238222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 136, false, NULL);
INSERT INTO public.records VALUES (2, 'item-129', 'Item', '3t', '\x7b227469746c65223a7b2276616c7565223a224974656d20313239222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3132392c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 137, false, NULL);
INSERT INTO public.records VALUES (2, 'item-130', 'Item', '3u', '\x7b227469746c65223a7b2276616c7565223a224974656d20313330222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3133302c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 138, false, NULL);
INSERT INTO public.records VALUES (2, 'item-131', 'Item', '3v', '\x7b227469746c65223a7b2276616c7565223a224974656d20313331222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3133312c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 139, false, NULL);
INSERT INTO public.records VALUES (2, 'item-132', 'Item', '3w', '\x7b227469746c65223a7b2276616c7565223a224974656d20313332222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3133322c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 140, false, NULL);
INSERT INTO public.records VALUES (2, 'item-133', 'Item', '3x', '\x7b227469746c65223a7b2276616c7565223a224974656d20313333222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3133332c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 141, false, NULL);
INSERT INTO public.records VALUES (2, 'item-134', 'Item', '3y', '\x7b227469746c65223a7b2276616c7565223a224974656d20313334222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3133342c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 142, false, NULL);
INSERT INTO public.records VALUES (2, 'item-135', 'Item', '3z', '\x7b226e223a7b2276616c7565223a3133352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313335222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 143, false, NULL);
INSERT INTO public.records VALUES (2, 'item-136', 'Item', '40', '\x7b226e223a7b2276616c7565223a3133362c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313336222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 144, false, NULL);
INSERT INTO public.records VALUES (2, 'item-137', 'Item', '41', '\x7b227469746c65223a7b2276616c7565223a224974656d20313337222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3133372c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 145, false, NULL);
INSERT INTO public.records VALUES (2, 'item-138', 'Item', '42', '\x7b226e223a7b2276616c7565223a3133382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313338222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 146, false, NULL);
INSERT INTO public.records VALUES (2, 'item-139', 'Item', '43', '\x7b226e223a7b2276616c7565223a3133392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313339222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 147, false, NULL);
INSERT INTO public.records VALUES (2, 'item-140', 'Item', '44', '\x7b227469746c65223a7b2276616c7565223a224974656d20313430222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3134302c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 148, false, NULL);
INSERT INTO public.records VALUES (2, 'item-141', 'Item', '45', '\x7b226e223a7b2276616c7565223a3134312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313431222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 149, false, NULL);
INSERT INTO public.records VALUES (2, 'item-142', 'Item', '46', '\x7b227469746c65223a7b2276616c7565223a224974656d20313432222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3134322c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 150, false, NULL);
INSERT INTO public.records VALUES (2, 'item-143', 'Item', '47', '\x7b226e223a7b2276616c7565223a3134332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313433222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 151, false, NULL);
INSERT INTO public.records VALUES (2, 'item-144', 'Item', '48', '\x7b227469746c65223a7b2276616c7565223a224974656d20313434222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3134342c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 152, false, NULL);
INSERT INTO public.records VALUES (2, 'item-145', 'Item', '49', '\x7b226e223a7b2276616c7565223a3134352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313435222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 153, false, NULL);
INSERT INTO public.records VALUES (2, 'item-146', 'Item', '4a', '\x7b227469746c65223a7b2276616c7565223a224974656d20313436222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3134362c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 154, false, NULL);
INSERT INTO public.records VALUES (2, 'item-147', 'Item', '4b', '\x7b226e223a7b2276616c7565223a3134372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313437222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 155, false, NULL);
INSERT INTO public.records VALUES (2, 'item-148', 'Item', '4c', '\x7b227469746c65223a7b2276616c7565223a224974656d20313438222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3134382c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 156, false, NULL);
INSERT INTO public.records VALUES (2, 'item-149', 'Item', '4d', '\x7b227469746c65223a7b2276616c7565223a224974656d20313439222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3134392c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 157, false, NULL);
INSERT INTO public.records VALUES (2, 'item-150', 'Item', '4e', '\x7b226e223a7b2276616c7565223a3135302c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313530222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 158, false, NULL);
INSERT INTO public.records VALUES (2, 'item-151', 'Item', '4f', '\x7b226e223a7b2276616c7565223a3135312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313531222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 159, false, NULL);
INSERT INTO public.records VALUES (2, 'item-152', 'Item', '4g', '\x7b226e223a7b2276616c7565223a3135322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313532222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 160, false, NULL);
INSERT INTO public.records VALUES (2, 'item-153', 'Item', '4h', '\x7b227469746c65223a7b2276616c7565223a224974656d20313533222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3135332c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 161, false, NULL);
INSERT INTO public.records VALUES (2, 'item-154', 'Item', '4i', '\x7b227469746c65223a7b2276616c7565223a224974656d20313534222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3135342c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 162, false, NULL);
INSERT INTO public.records VALUES (2, 'item-155', 'Item', '4j', '\x7b226e223a7b2276616c7565223a3135352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313535222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 163, false, NULL);
INSERT INTO public.records VALUES (2, 'item-156', 'Item', '4k', '\x7b227469746c65223a7b2276616c7565223a224974656d20313536222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3135362c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 164, false, NULL);
INSERT INTO public.records VALUES (2, 'item-157', 'Item', '4l', '\x7b226e223a7b2276616c7565223a3135372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313537222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 165, false, NULL);
INSERT INTO public.records VALUES (2, 'item-158', 'Item', '4m', '\x7b227469746c65223a7b2276616c7565223a224974656d20313538222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3135382c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 166, false, NULL);
INSERT INTO public.records VALUES (2, 'item-159', 'Item', '4n', '\x7b227469746c65223a7b2276616c7565223a224974656d20313539222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3135392c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 167, false, NULL);
INSERT INTO public.records VALUES (2, 'item-160', 'Item', '4o', '\x7b226e223a7b2276616c7565223a3136302c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313630222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 168, false, NULL);
INSERT INTO public.records VALUES (2, 'item-161', 'Item', '4p', '\x7b227469746c65223a7b2276616c7565223a224974656d20313631222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3136312c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 169, false, NULL);
INSERT INTO public.records VALUES (2, 'item-162', 'Item', '4q', '\x7b227469746c65223a7b2276616c7565223a224974656d20313632222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3136322c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 170, false, NULL);
INSERT INTO public.records VALUES (2, 'item-163', 'Item', '4r', '\x7b227469746c65223a7b2276616c7565223a224974656d20313633222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3136332c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 171, false, NULL);
INSERT INTO public.records VALUES (2, 'item-164', 'Item', '4s', '\x7b227469746c65223a7b2276616c7565223a224974656d20313634222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3136342c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 172, false, NULL);
INSERT INTO public.records VALUES (2, 'item-165', 'Item', '4t', '\x7b226e223a7b2276616c7565223a3136352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313635222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 173, false, NULL);
INSERT INTO public.records VALUES (2, 'item-166', 'Item', '4u', '\x7b227469746c65223a7b2276616c7565223a224974656d20313636222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3136362c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 174, false, NULL);
INSERT INTO public.records VALUES (2, 'item-167', 'Item', '4v', '\x7b227469746c65223a7b2276616c7565223a224974656d20313637222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3136372c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 175, false, NULL);
INSERT INTO public.records VALUES (2, 'item-168', 'Item', '4w', '\x7b227469746c65223a7b2276616c7565223a224974656d20313638222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3136382c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 176, false, NULL);
INSERT INTO public.records VALUES (2, 'item-169', 'Item', '4x', '\x7b227469746c65223a7b2276616c7565223a224974656d20313639222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3136392c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 177, false, NULL);
INSERT INTO public.records VALUES (2, 'item-170', 'Item', '4y', '\x7b227469746c65223a7b2276616c7565223a224974656d20313730222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3137302c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 178, false, NULL);
INSERT INTO public.records VALUES (2, 'item-171', 'Item', '4z', '\x7b226e223a7b2276616c7565223a3137312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313731222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 179, false, NULL);
INSERT INTO public.records VALUES (2, 'item-172', 'Item', '50', '\x7b227469746c65223a7b2276616c7565223a224974656d20313732222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3137322c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 180, false, NULL);
INSERT INTO public.records VALUES (2, 'item-173', 'Item', '51', '\x7b227469746c65223a7b2276616c7565223a224974656d20313733222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3137332c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 181, false, NULL);
INSERT INTO public.records VALUES (2, 'item-174', 'Item', '52', '\x7b226e223a7b2276616c7565223a3137342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313734222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 182, false, NULL);
INSERT INTO public.records VALUES (2, 'item-175', 'Item', '53', '\x7b227469746c65223a7b2276616c7565223a224974656d20313735222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3137352c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 183, false, NULL);
INSERT INTO public.records VALUES (2, 'item-176', 'Item', '54', '\x7b227469746c65223a7b2276616c7565223a224974656d20313736222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3137362c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 184, false, NULL);
INSERT INTO public.records VALUES (2, 'item-177', 'Item', '55', '\x7b227469746c65223a7b2276616c7565223a224974656d20313737222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3137372c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 185, false, NULL);
INSERT INTO public.records VALUES (2, 'item-178', 'Item', '56', '\x7b227469746c65223a7b2276616c7565223a224974656d20313738222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3137382c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 186, false, NULL);
INSERT INTO public.records VALUES (2, 'item-179', 'Item', '57', '\x7b227469746c65223a7b2276616c7565223a224974656d20313739222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3137392c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 187, false, NULL);
INSERT INTO public.records VALUES (2, 'item-180', 'Item', '58', '\x7b227469746c65223a7b2276616c7565223a224974656d20313830222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3138302c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 188, false, NULL);
INSERT INTO public.records VALUES (2, 'item-181', 'Item', '59', '\x7b226e223a7b2276616c7565223a3138312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313831222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 189, false, NULL);
INSERT INTO public.records VALUES (2, 'item-182', 'Item', '5a', '\x7b227469746c65223a7b2276616c7565223a224974656d20313832222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3138322c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 190, false, NULL);
INSERT INTO public.records VALUES (2, 'item-183', 'Item', '5b', '\x7b226e223a7b2276616c7565223a3138332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313833222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 191, false, NULL);
INSERT INTO public.records VALUES (2, 'item-184', 'Item', '5c', '\x7b226e223a7b2276616c7565223a3138342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313834222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 192, false, NULL);
INSERT INTO public.records VALUES (2, 'item-185', 'Item', '5d', '\x7b227469746c65223a7b2276616c7565223a224974656d20313835222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3138352c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 193, false, NULL);
INSERT INTO public.records VALUES (2, 'item-186', 'Item', '5e', '\x7b227469746c65223a7b2276616c7565223a224974656d20313836222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3138362c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 194, false, NULL);
INSERT INTO public.records VALUES (2, 'item-187', 'Item', '5f', '\x7b227469746c65223a7b2276616c7565223a224974656d20313837222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3138372c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 195, false, NULL);
INSERT INTO public.records VALUES (2, 'item-188', 'Item', '5g', '\x7b227469746c65223a7b2276616c7565223a224974656d20313838222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3138382c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 196, false, NULL);
INSERT INTO public.records VALUES (2, 'item-189', 'Item', '5h', '\x7b227469746c65223a7b2276616c7565223a224974656d20313839222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3138392c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 197, false, NULL);
INSERT INTO public.records VALUES (2, 'item-190', 'Item', '5i', '\x7b226e223a7b2276616c7565223a3139302c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313930222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 198, false, NULL);
INSERT INTO public.records VALUES (2, 'item-191', 'Item', '5j', '\x7b226e223a7b2276616c7565223a3139312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313931222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 199, false, NULL);
INSERT INTO public.records VALUES (2, 'item-192', 'Item', '5k', '\x7b227469746c65223a7b2276616c7565223a224974656d20313932222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3139322c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 200, false, NULL);
INSERT INTO public.records VALUES (2, 'item-193', 'Item', '5l', '\x7b227469746c65223a7b2276616c7565223a224974656d20313933222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3139332c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 201, false, NULL);
INSERT INTO public.records VALUES (2, 'item-194', 'Item', '5m', '\x7b227469746c65223a7b2276616c7565223a224974656d20313934222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3139342c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 202, false, NULL);
INSERT INTO public.records VALUES (2, 'item-195', 'Item', '5n', '\x7b226e223a7b2276616c7565223a3139352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313935222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 203, false, NULL);
INSERT INTO public.records VALUES (2, 'item-196', 'Item', '5o', '\x7b227469746c65223a7b2276616c7565223a224974656d20313936222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3139362c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 204, false, NULL);
INSERT INTO public.records VALUES (2, 'item-197', 'Item', '5p', '\x7b227469746c65223a7b2276616c7565223a224974656d20313937222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3139372c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 205, false, NULL);
INSERT INTO public.records VALUES (2, 'item-198', 'Item', '5q', '\x7b227469746c65223a7b2276616c7565223a224974656d20313938222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3139382c2274797065223a22494e543634227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 206, false, NULL);
INSERT INTO public.records VALUES (2, 'item-199', 'Item', '5r', '\x7b226e223a7b2276616c7565223a3139392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20313939222c2274797065223a22535452494e47227d7d', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907149994, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 207, false, NULL);
INSERT INTO public.records VALUES (2, 'item-200', 'Item', '5s', '\x7b227469746c65223a7b2276616c7565223a224974656d20323030222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3230302c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 208, false, NULL);
INSERT INTO public.records VALUES (2, 'item-201', 'Item', '5t', '\x7b226e223a7b2276616c7565223a3230312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323031222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 209, false, NULL);
INSERT INTO public.records VALUES (2, 'item-202', 'Item', '5u', '\x7b227469746c65223a7b2276616c7565223a224974656d20323032222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3230322c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 210, false, NULL);
INSERT INTO public.records VALUES (2, 'item-203', 'Item', '5v', '\x7b227469746c65223a7b2276616c7565223a224974656d20323033222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3230332c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 211, false, NULL);
INSERT INTO public.records VALUES (2, 'item-204', 'Item', '5w', '\x7b227469746c65223a7b2276616c7565223a224974656d20323034222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3230342c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 212, false, NULL);
INSERT INTO public.records VALUES (2, 'item-205', 'Item', '5x', '\x7b227469746c65223a7b2276616c7565223a224974656d20323035222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3230352c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 213, false, NULL);
INSERT INTO public.records VALUES (2, 'item-206', 'Item', '5y', '\x7b227469746c65223a7b2276616c7565223a224974656d20323036222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3230362c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 214, false, NULL);
INSERT INTO public.records VALUES (2, 'item-207', 'Item', '5z', '\x7b227469746c65223a7b2276616c7565223a224974656d20323037222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3230372c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 215, false, NULL);
INSERT INTO public.records VALUES (2, 'item-208', 'Item', '60', '\x7b227469746c65223a7b2276616c7565223a224974656d20323038222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3230382c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 216, false, NULL);
INSERT INTO public.records VALUES (2, 'item-209', 'Item', '61', '\x7b227469746c65223a7b2276616c7565223a224974656d20323039222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3230392c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 217, false, NULL);
INSERT INTO public.records VALUES (2, 'item-210', 'Item', '62', '\x7b227469746c65223a7b2276616c7565223a224974656d20323130222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3231302c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 218, false, NULL);
INSERT INTO public.records VALUES (2, 'item-211', 'Item', '63', '\x7b227469746c65223a7b2276616c7565223a224974656d20323131222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3231312c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 219, false, NULL);
INSERT INTO public.records VALUES (2, 'item-212', 'Item', '64', '\x7b227469746c65223a7b2276616c7565223a224974656d20323132222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3231322c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 220, false, NULL);
INSERT INTO public.records VALUES (2, 'item-213', 'Item', '65', '\x7b227469746c65223a7b2276616c7565223a224974656d20323133222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3231332c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 221, false, NULL);
INSERT INTO public.records VALUES (2, 'item-214', 'Item', '66', '\x7b227469746c65223a7b2276616c7565223a224974656d20323134222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3231342c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 222, false, NULL);
INSERT INTO public.records VALUES (2, 'item-215', 'Item', '67', '\x7b227469746c65223a7b2276616c7565223a224974656d20323135222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3231352c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 223, false, NULL);
INSERT INTO public.records VALUES (2, 'item-216', 'Item', '68', '\x7b227469746c65223a7b2276616c7565223a224974656d20323136222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3231362c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 224, false, NULL);
INSERT INTO public.records VALUES (2, 'item-217', 'Item', '69', '\x7b226e223a7b2276616c7565223a3231372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323137222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 225, false, NULL);
INSERT INTO public.records VALUES (2, 'item-218', 'Item', '6a', '\x7b226e223a7b2276616c7565223a3231382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323138222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 226, false, NULL);
INSERT INTO public.records VALUES (2, 'item-219', 'Item', '6b', '\x7b226e223a7b2276616c7565223a3231392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323139222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 227, false, NULL);
INSERT INTO public.records VALUES (2, 'item-220', 'Item', '6c', '\x7b227469746c65223a7b2276616c7565223a224974656d20323230222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3232302c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 228, false, NULL);
INSERT INTO public.records VALUES (2, 'item-221', 'Item', '6d', '\x7b227469746c65223a7b2276616c7565223a224974656d20323231222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3232312c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 229, false, NULL);
INSERT INTO public.records VALUES (2, 'item-222', 'Item', '6e', '\x7b226e223a7b2276616c7565223a3232322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323232222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 230, false, NULL);
INSERT INTO public.records VALUES (2, 'item-223', 'Item', '6f', '\x7b227469746c65223a7b2276616c7565223a224974656d20323233222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3232332c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 231, false, NULL);
INSERT INTO public.records VALUES (2, 'item-224', 'Item', '6g', '\x7b227469746c65223a7b2276616c7565223a224974656d20323234222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3232342c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 232, false, NULL);
INSERT INTO public.records VALUES (2, 'item-225', 'Item', '6h', '\x7b226e223a7b2276616c7565223a3232352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323235222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 233, false, NULL);
INSERT INTO public.records VALUES (2, 'item-226', 'Item', '6i', '\x7b227469746c65223a7b2276616c7565223a224974656d20323236222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3232362c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 234, false, NULL);
INSERT INTO public.records VALUES (2, 'item-227', 'Item', '6j', '\x7b226e223a7b2276616c7565223a3232372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323237222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 235, false, NULL);
INSERT INTO public.records VALUES (2, 'item-228', 'Item', '6k', '\x7b226e223a7b2276616c7565223a3232382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323238222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 236, false, NULL);
INSERT INTO public.records VALUES (2, 'item-229', 'Item', '6l', '\x7b227469746c65223a7b2276616c7565223a224974656d20323239222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3232392c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 237, false, NULL);
INSERT INTO public.records VALUES (2, 'item-230', 'Item', '6m', '\x7b227469746c65223a7b2276616c7565223a224974656d20323330222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3233302c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 238, false, NULL);
INSERT INTO public.records VALUES (2, 'item-231', 'Item', '6n', '\x7b226e223a7b2276616c7565223a3233312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323331222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 239, false, NULL);
INSERT INTO public.records VALUES (2, 'item-232', 'Item', '6o', '\x7b227469746c65223a7b2276616c7565223a224974656d20323332222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3233322c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 240, false, NULL);
INSERT INTO public.records VALUES (2, 'item-233', 'Item', '6p', '\x7b227469746c65223a7b2276616c7565223a224974656d20323333222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3233332c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 241, false, NULL);
INSERT INTO public.records VALUES (2, 'item-234', 'Item', '6q', '\x7b227469746c65223a7b2276616c7565223a224974656d20323334222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3233342c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 242, false, NULL);
INSERT INTO public.records VALUES (2, 'item-235', 'Item', '6r', '\x7b226e223a7b2276616c7565223a3233352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323335222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 243, false, NULL);
INSERT INTO public.records VALUES (2, 'item-236', 'Item', '6s', '\x7b227469746c65223a7b2276616c7565223a224974656d20323336222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3233362c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 244, false, NULL);
INSERT INTO public.records VALUES (2, 'item-237', 'Item', '6t', '\x7b227469746c65223a7b2276616c7565223a224974656d20323337222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3233372c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 245, false, NULL);
INSERT INTO public.records VALUES (2, 'item-238', 'Item', '6u', '\x7b227469746c65223a7b2276616c7565223a224974656d20323338222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3233382c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 246, false, NULL);
INSERT INTO public.records VALUES (2, 'item-239', 'Item', '6v', '\x7b227469746c65223a7b2276616c7565223a224974656d20323339222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3233392c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 247, false, NULL);
INSERT INTO public.records VALUES (2, 'item-240', 'Item', '6w', '\x7b226e223a7b2276616c7565223a3234302c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323430222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 248, false, NULL);
INSERT INTO public.records VALUES (2, 'item-241', 'Item', '6x', '\x7b227469746c65223a7b2276616c7565223a224974656d20323431222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3234312c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 249, false, NULL);
INSERT INTO public.records VALUES (2, 'item-242', 'Item', '6y', '\x7b227469746c65223a7b2276616c7565223a224974656d20323432222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3234322c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 250, false, NULL);
INSERT INTO public.records VALUES (2, 'item-243', 'Item', '6z', '\x7b226e223a7b2276616c7565223a3234332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323433222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 251, false, NULL);
INSERT INTO public.records VALUES (2, 'item-244', 'Item', '70', '\x7b227469746c65223a7b2276616c7565223a224974656d20323434222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3234342c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 252, false, NULL);
INSERT INTO public.records VALUES (2, 'item-245', 'Item', '71', '\x7b226e223a7b2276616c7565223a3234352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323435222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 253, false, NULL);
INSERT INTO public.records VALUES (2, 'item-246', 'Item', '72', '\x7b227469746c65223a7b2276616c7565223a224974656d20323436222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3234362c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 254, false, NULL);
INSERT INTO public.records VALUES (2, 'item-247', 'Item', '73', '\x7b226e223a7b2276616c7565223a3234372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323437222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 255, false, NULL);
INSERT INTO public.records VALUES (2, 'item-248', 'Item', '74', '\x7b226e223a7b2276616c7565223a3234382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323438222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 256, false, NULL);
INSERT INTO public.records VALUES (2, 'item-249', 'Item', '75', '\x7b226e223a7b2276616c7565223a3234392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323439222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 257, false, NULL);
INSERT INTO public.records VALUES (2, 'item-250', 'Item', '76', '\x7b227469746c65223a7b2276616c7565223a224974656d20323530222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3235302c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 258, false, NULL);
INSERT INTO public.records VALUES (2, 'item-251', 'Item', '77', '\x7b226e223a7b2276616c7565223a3235312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323531222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 259, false, NULL);
INSERT INTO public.records VALUES (2, 'item-252', 'Item', '78', '\x7b227469746c65223a7b2276616c7565223a224974656d20323532222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3235322c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 260, false, NULL);
INSERT INTO public.records VALUES (2, 'item-253', 'Item', '79', '\x7b226e223a7b2276616c7565223a3235332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323533222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 261, false, NULL);
INSERT INTO public.records VALUES (2, 'item-254', 'Item', '7a', '\x7b227469746c65223a7b2276616c7565223a224974656d20323534222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3235342c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 262, false, NULL);
INSERT INTO public.records VALUES (2, 'item-255', 'Item', '7b', '\x7b227469746c65223a7b2276616c7565223a224974656d20323535222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3235352c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 263, false, NULL);
INSERT INTO public.records VALUES (2, 'item-256', 'Item', '7c', '\x7b227469746c65223a7b2276616c7565223a224974656d20323536222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3235362c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 264, false, NULL);
INSERT INTO public.records VALUES (2, 'item-257', 'Item', '7d', '\x7b226e223a7b2276616c7565223a3235372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323537222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 265, false, NULL);
INSERT INTO public.records VALUES (2, 'item-258', 'Item', '7e', '\x7b227469746c65223a7b2276616c7565223a224974656d20323538222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3235382c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 266, false, NULL);
INSERT INTO public.records VALUES (2, 'item-259', 'Item', '7f', '\x7b226e223a7b2276616c7565223a3235392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323539222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 267, false, NULL);
INSERT INTO public.records VALUES (2, 'item-260', 'Item', '7g', '\x7b227469746c65223a7b2276616c7565223a224974656d20323630222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3236302c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 268, false, NULL);
INSERT INTO public.records VALUES (2, 'item-261', 'Item', '7h', '\x7b227469746c65223a7b2276616c7565223a224974656d20323631222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3236312c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 269, false, NULL);
INSERT INTO public.records VALUES (2, 'item-262', 'Item', '7i', '\x7b226e223a7b2276616c7565223a3236322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323632222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 270, false, NULL);
INSERT INTO public.records VALUES (2, 'item-263', 'Item', '7j', '\x7b227469746c65223a7b2276616c7565223a224974656d20323633222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3236332c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 271, false, NULL);
INSERT INTO public.records VALUES (2, 'item-264', 'Item', '7k', '\x7b227469746c65223a7b2276616c7565223a224974656d20323634222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3236342c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 272, false, NULL);
INSERT INTO public.records VALUES (2, 'item-265', 'Item', '7l', '\x7b226e223a7b2276616c7565223a3236352c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323635222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 273, false, NULL);
INSERT INTO public.records VALUES (2, 'item-266', 'Item', '7m', '\x7b226e223a7b2276616c7565223a3236362c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323636222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 274, false, NULL);
INSERT INTO public.records VALUES (2, 'item-267', 'Item', '7n', '\x7b227469746c65223a7b2276616c7565223a224974656d20323637222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3236372c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 275, false, NULL);
INSERT INTO public.records VALUES (2, 'item-268', 'Item', '7o', '\x7b227469746c65223a7b2276616c7565223a224974656d20323638222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3236382c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 276, false, NULL);
INSERT INTO public.records VALUES (2, 'item-269', 'Item', '7p', '\x7b227469746c65223a7b2276616c7565223a224974656d20323639222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3236392c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 277, false, NULL);
INSERT INTO public.records VALUES (2, 'item-270', 'Item', '7q', '\x7b226e223a7b2276616c7565223a3237302c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323730222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 278, false, NULL);
INSERT INTO public.records VALUES (2, 'item-271', 'Item', '7r', '\x7b227469746c65223a7b2276616c7565223a224974656d20323731222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3237312c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 279, false, NULL);
INSERT INTO public.records VALUES (2, 'item-272', 'Item', '7s', '\x7b227469746c65223a7b2276616c7565223a224974656d20323732222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3237322c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 280, false, NULL);
INSERT INTO public.records VALUES (2, 'item-273', 'Item', '7t', '\x7b227469746c65223a7b2276616c7565223a224974656d20323733222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3237332c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 281, false, NULL);
INSERT INTO public.records VALUES (2, 'item-274', 'Item', '7u', '\x7b226e223a7b2276616c7565223a3237342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323734222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 282, false, NULL);
INSERT INTO public.records VALUES (2, 'item-275', 'Item', '7v', '\x7b227469746c65223a7b2276616c7565223a224974656d20323735222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3237352c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 283, false, NULL);
INSERT INTO public.records VALUES (2, 'item-276', 'Item', '7w', '\x7b227469746c65223a7b2276616c7565223a224974656d20323736222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3237362c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 284, false, NULL);
INSERT INTO public.records VALUES (2, 'item-277', 'Item', '7x', '\x7b227469746c65223a7b2276616c7565223a224974656d20323737222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3237372c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 285, false, NULL);
INSERT INTO public.records VALUES (2, 'item-278', 'Item', '7y', '\x7b227469746c65223a7b2276616c7565223a224974656d20323738222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3237382c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 286, false, NULL);
INSERT INTO public.records VALUES (2, 'item-279', 'Item', '7z', '\x7b226e223a7b2276616c7565223a3237392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323739222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 287, false, NULL);
INSERT INTO public.records VALUES (2, 'item-280', 'Item', '80', '\x7b226e223a7b2276616c7565223a3238302c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323830222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 288, false, NULL);
INSERT INTO public.records VALUES (2, 'item-281', 'Item', '81', '\x7b227469746c65223a7b2276616c7565223a224974656d20323831222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3238312c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 289, false, NULL);
INSERT INTO public.records VALUES (2, 'item-282', 'Item', '82', '\x7b227469746c65223a7b2276616c7565223a224974656d20323832222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3238322c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 290, false, NULL);
INSERT INTO public.records VALUES (2, 'item-283', 'Item', '83', '\x7b226e223a7b2276616c7565223a3238332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323833222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 291, false, NULL);
INSERT INTO public.records VALUES (2, 'item-284', 'Item', '84', '\x7b226e223a7b2276616c7565223a3238342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323834222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 292, false, NULL);
INSERT INTO public.records VALUES (2, 'item-285', 'Item', '85', '\x7b227469746c65223a7b2276616c7565223a224974656d20323835222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3238352c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 293, false, NULL);
INSERT INTO public.records VALUES (2, 'item-286', 'Item', '86', '\x7b227469746c65223a7b2276616c7565223a224974656d20323836222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3238362c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 294, false, NULL);
INSERT INTO public.records VALUES (2, 'item-287', 'Item', '87', '\x7b226e223a7b2276616c7565223a3238372c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323837222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 295, false, NULL);
INSERT INTO public.records VALUES (2, 'item-288', 'Item', '88', '\x7b226e223a7b2276616c7565223a3238382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323838222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 296, false, NULL);
INSERT INTO public.records VALUES (2, 'item-289', 'Item', '89', '\x7b227469746c65223a7b2276616c7565223a224974656d20323839222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3238392c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 297, false, NULL);
INSERT INTO public.records VALUES (2, 'item-290', 'Item', '8a', '\x7b226e223a7b2276616c7565223a3239302c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323930222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 298, false, NULL);
INSERT INTO public.records VALUES (2, 'item-291', 'Item', '8b', '\x7b226e223a7b2276616c7565223a3239312c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323931222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 299, false, NULL);
INSERT INTO public.records VALUES (2, 'item-292', 'Item', '8c', '\x7b226e223a7b2276616c7565223a3239322c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323932222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 300, false, NULL);
INSERT INTO public.records VALUES (2, 'item-293', 'Item', '8d', '\x7b226e223a7b2276616c7565223a3239332c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323933222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 301, false, NULL);
INSERT INTO public.records VALUES (2, 'item-294', 'Item', '8e', '\x7b226e223a7b2276616c7565223a3239342c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323934222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 302, false, NULL);
INSERT INTO public.records VALUES (2, 'item-295', 'Item', '8f', '\x7b227469746c65223a7b2276616c7565223a224974656d20323935222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3239352c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 303, false, NULL);
INSERT INTO public.records VALUES (2, 'item-296', 'Item', '8g', '\x7b227469746c65223a7b2276616c7565223a224974656d20323936222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3239362c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 304, false, NULL);
INSERT INTO public.records VALUES (2, 'item-297', 'Item', '8h', '\x7b227469746c65223a7b2276616c7565223a224974656d20323937222c2274797065223a22535452494e47227d2c226e223a7b2276616c7565223a3239372c2274797065223a22494e543634227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 305, false, NULL);
INSERT INTO public.records VALUES (2, 'item-298', 'Item', '8i', '\x7b226e223a7b2276616c7565223a3239382c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323938222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 306, false, NULL);
INSERT INTO public.records VALUES (2, 'item-299', 'Item', '8j', '\x7b226e223a7b2276616c7565223a3239392c2274797065223a22494e543634227d2c227469746c65223a7b2276616c7565223a224974656d20323939222c2274797065223a22535452494e47227d7d', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150058, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 307, false, NULL);
INSERT INTO public.records VALUES (3, 'notice-1', 'Notice', '8l', '\x7b227469746c65223a7b2276616c7565223a225075626c69632c2066726f6d20666f726d61742031222c2274797065223a22535452494e47227d7d', 1795907150151, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', 1795907150151, '_9acf9d87197b2bceae9dec6d09a3f42d', 'phone', NULL, NULL, 309, false, NULL);


--
-- Data for Name: schema_fields; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'title', 'STRING', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'count', 'INT64', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'tags', 'STRING_LIST', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'file', 'ASSET', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Note', 'about', 'REFERENCE', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Item', 'title', 'STRING', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Item', 'n', 'INT64', 0);
INSERT INTO public.schema_fields VALUES ('iCloud.test.stratus', 'development', 'Notice', 'title', 'STRING', 0);


--
-- Data for Name: schema_grants; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: schema_record_types; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_record_types VALUES ('iCloud.test.stratus', 'development', 'Note');
INSERT INTO public.schema_record_types VALUES ('iCloud.test.stratus', 'development', 'Item');
INSERT INTO public.schema_record_types VALUES ('iCloud.test.stratus', 'development', 'Notice');


--
-- Data for Name: schema_roles; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: server_keys; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: server_secrets; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.server_secrets VALUES ('server', '\x90b2361a0ebe73d9d681b252014be942ff77c514ca84f2e268d20b75970c1e9d');


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.sessions VALUES ('6abd076003be4eccc63377a389309062a2febf42e94231aa12649b1b2f85b161', '_9acf9d87197b2bceae9dec6d09a3f42d', 'iCloud.test.stratus', 'development', 1797116749742);


--
-- Data for Name: share_participants; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: shared_zones; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: shares; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: store_epoch; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.store_epoch VALUES (1, 0);


--
-- Data for Name: stratus_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.stratus_migrations VALUES ('v1', '2026-11-28 23:05:48.5195+00');
INSERT INTO public.stratus_migrations VALUES ('v2-instances', '2026-11-28 23:05:48.722447+00');
INSERT INTO public.stratus_migrations VALUES ('v3-job-leases', '2026-11-28 23:05:48.741029+00');
INSERT INTO public.stratus_migrations VALUES ('v4-asset-chunks', '2026-11-28 23:05:48.748527+00');
INSERT INTO public.stratus_migrations VALUES ('v5-fleet-counters', '2026-11-28 23:05:48.757369+00');
INSERT INTO public.stratus_migrations VALUES ('v6-apns-token-sessions', '2026-11-28 23:05:48.770072+00');
INSERT INTO public.stratus_migrations VALUES ('v7-web-origins', '2026-11-28 23:05:48.775794+00');
INSERT INTO public.stratus_migrations VALUES ('v8-password-reset', '2026-11-28 23:05:48.779674+00');
INSERT INTO public.stratus_migrations VALUES ('v9-apple-identities', '2026-11-28 23:05:48.789308+00');


--
-- Data for Name: subscriptions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.subscriptions VALUES (1, '_9acf9d87197b2bceae9dec6d09a3f42d', 'notes', '{"zoneID":{"zoneName":"Notes"},"subscriptionType":"zone","subscriptionID":"notes"}');


--
-- Data for Name: user_roles; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.users VALUES ('_9acf9d87197b2bceae9dec6d09a3f42d', 'iCloud.test.stratus', 'fixture-alice', 'scrypt$15$8$1$OzS0N/uh1vvvjGbrrp7A7A==$kfO7wLactYMcALwu77OTdndY3ZW0ftqyfdgEc+lZGAI=', 1795907149742, NULL, false, false, NULL, NULL, NULL, false);


--
-- Data for Name: zones; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.zones VALUES (1, 1, '_defaultZone', 1, 0, false, NULL);
INSERT INTO public.zones VALUES (2, 1, 'Notes', 307, 0, false, NULL);
INSERT INTO public.zones VALUES (3, 2, '_defaultZone', 309, 0, false, NULL);


--
-- Name: bus_messages_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.bus_messages_id_seq', 3, true);


--
-- Name: databases_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.databases_id_seq', 2, true);


--
-- Name: zones_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.zones_id_seq', 3, true);


--
-- Name: accepted_messages accepted_messages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accepted_messages
    ADD CONSTRAINT accepted_messages_pkey PRIMARY KEY (message);


--
-- Name: administrators administrators_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.administrators
    ADD CONSTRAINT administrators_pkey PRIMARY KEY (username);


--
-- Name: apns_credentials apns_credentials_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.apns_credentials
    ADD CONSTRAINT apns_credentials_pkey PRIMARY KEY (container_id);


--
-- Name: apns_tokens apns_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.apns_tokens
    ADD CONSTRAINT apns_tokens_pkey PRIMARY KEY (container_id, apns_token);


--
-- Name: asset_blobs asset_blobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_blobs
    ADD CONSTRAINT asset_blobs_pkey PRIMARY KEY (checksum);


--
-- Name: asset_chunks asset_chunks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_chunks
    ADD CONSTRAINT asset_chunks_pkey PRIMARY KEY (checksum, part);


--
-- Name: asset_collection_holds asset_collection_holds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_collection_holds
    ADD CONSTRAINT asset_collection_holds_pkey PRIMARY KEY (holder);


--
-- Name: asset_references asset_references_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_references
    ADD CONSTRAINT asset_references_pkey PRIMARY KEY (zone_id, record_name, checksum);


--
-- Name: asset_uploads asset_uploads_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.asset_uploads
    ADD CONSTRAINT asset_uploads_pkey PRIMARY KEY (receipt_hash);


--
-- Name: bus_messages bus_messages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.bus_messages
    ADD CONSTRAINT bus_messages_pkey PRIMARY KEY (id);


--
-- Name: change_sequence change_sequence_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.change_sequence
    ADD CONSTRAINT change_sequence_pkey PRIMARY KEY (id);


--
-- Name: console_sessions console_sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.console_sessions
    ADD CONSTRAINT console_sessions_pkey PRIMARY KEY (token_hash);


--
-- Name: containers containers_api_token_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.containers
    ADD CONSTRAINT containers_api_token_key UNIQUE (api_token);


--
-- Name: containers containers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.containers
    ADD CONSTRAINT containers_pkey PRIMARY KEY (id);


--
-- Name: databases databases_container_id_environment_scope_owner_record_name_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.databases
    ADD CONSTRAINT databases_container_id_environment_scope_owner_record_name_key UNIQUE (container_id, environment, scope, owner_record_name);


--
-- Name: databases databases_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.databases
    ADD CONSTRAINT databases_pkey PRIMARY KEY (id);


--
-- Name: email_codes email_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.email_codes
    ADD CONSTRAINT email_codes_pkey PRIMARY KEY (user_record_name);


--
-- Name: job_leases job_leases_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.job_leases
    ADD CONSTRAINT job_leases_pkey PRIMARY KEY (name);


--
-- Name: password_reset_codes password_reset_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.password_reset_codes
    ADD CONSTRAINT password_reset_codes_pkey PRIMARY KEY (code_hash);


--
-- Name: rate_buckets rate_buckets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_buckets
    ADD CONSTRAINT rate_buckets_pkey PRIMARY KEY (key);


--
-- Name: record_index record_index_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.record_index
    ADD CONSTRAINT record_index_pkey PRIMARY KEY (zone_id, record_type, field_name, value, record_name);


--
-- Name: record_references record_references_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.record_references
    ADD CONSTRAINT record_references_pkey PRIMARY KEY (zone_id, target_name, source_name, action);


--
-- Name: records records_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.records
    ADD CONSTRAINT records_pkey PRIMARY KEY (zone_id, record_name);


--
-- Name: schema_fields schema_fields_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_fields
    ADD CONSTRAINT schema_fields_pkey PRIMARY KEY (container_id, environment, record_type, field_name);


--
-- Name: schema_grants schema_grants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_grants
    ADD CONSTRAINT schema_grants_pkey PRIMARY KEY (container_id, environment, record_type, role);


--
-- Name: schema_record_types schema_record_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_record_types
    ADD CONSTRAINT schema_record_types_pkey PRIMARY KEY (container_id, environment, record_type);


--
-- Name: schema_roles schema_roles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_roles
    ADD CONSTRAINT schema_roles_pkey PRIMARY KEY (container_id, environment, role);


--
-- Name: server_keys server_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.server_keys
    ADD CONSTRAINT server_keys_pkey PRIMARY KEY (key_id);


--
-- Name: server_secrets server_secrets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.server_secrets
    ADD CONSTRAINT server_secrets_pkey PRIMARY KEY (name);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (token_hash);


--
-- Name: share_participants share_participants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.share_participants
    ADD CONSTRAINT share_participants_pkey PRIMARY KEY (zone_id, share_record_name, user_record_name);


--
-- Name: shared_zones shared_zones_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shared_zones
    ADD CONSTRAINT shared_zones_pkey PRIMARY KEY (user_record_name, zone_id);


--
-- Name: shares shares_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shares
    ADD CONSTRAINT shares_pkey PRIMARY KEY (zone_id, record_name);


--
-- Name: shares shares_short_guid_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.shares
    ADD CONSTRAINT shares_short_guid_key UNIQUE (short_guid);


--
-- Name: store_epoch store_epoch_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.store_epoch
    ADD CONSTRAINT store_epoch_pkey PRIMARY KEY (id);


--
-- Name: stratus_migrations stratus_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stratus_migrations
    ADD CONSTRAINT stratus_migrations_pkey PRIMARY KEY (identifier);


--
-- Name: subscriptions subscriptions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.subscriptions
    ADD CONSTRAINT subscriptions_pkey PRIMARY KEY (database_id, owner, subscription_id);


--
-- Name: user_roles user_roles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.user_roles
    ADD CONSTRAINT user_roles_pkey PRIMARY KEY (container_id, environment, user_record_name, role);


--
-- Name: users users_container_id_username_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_container_id_username_key UNIQUE (container_id, username);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (user_record_name);


--
-- Name: zones zones_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.zones
    ADD CONSTRAINT zones_pkey PRIMARY KEY (id);


--
-- Name: apns_tokens_session; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX apns_tokens_session ON public.apns_tokens USING btree (session_hash);


--
-- Name: apns_tokens_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX apns_tokens_user ON public.apns_tokens USING btree (container_id, environment, user_record_name, registered_at);


--
-- Name: asset_references_checksum; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX asset_references_checksum ON public.asset_references USING btree (checksum, zone_id);


--
-- Name: asset_uploads_age; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX asset_uploads_age ON public.asset_uploads USING btree (uploaded_at);


--
-- Name: asset_uploads_checksum; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX asset_uploads_checksum ON public.asset_uploads USING btree (checksum);


--
-- Name: bus_messages_age; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX bus_messages_age ON public.bus_messages USING btree (created_at);


--
-- Name: console_sessions_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX console_sessions_user ON public.console_sessions USING btree (username);


--
-- Name: password_reset_codes_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX password_reset_codes_user ON public.password_reset_codes USING btree (user_record_name);


--
-- Name: record_index_record; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX record_index_record ON public.record_index USING btree (zone_id, record_name);


--
-- Name: record_references_source; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX record_references_source ON public.record_references USING btree (zone_id, source_name);


--
-- Name: records_changes; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX records_changes ON public.records USING btree (zone_id, sequence);


--
-- Name: server_keys_container; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX server_keys_container ON public.server_keys USING btree (container_id, created_at);


--
-- Name: sessions_expiry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_expiry ON public.sessions USING btree (expires_at);


--
-- Name: sessions_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_user ON public.sessions USING btree (user_record_name);


--
-- Name: share_participants_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX share_participants_user ON public.share_participants USING btree (user_record_name, zone_id);


--
-- Name: shared_zones_changes; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shared_zones_changes ON public.shared_zones USING btree (user_record_name, sequence);


--
-- Name: shared_zones_zone; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX shared_zones_zone ON public.shared_zones USING btree (zone_id, active);


--
-- Name: users_apple_subject; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_apple_subject ON public.users USING btree (container_id, apple_subject);


--
-- Name: users_verified_email; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_verified_email ON public.users USING btree (container_id, email) WHERE email_verified;


--
-- Name: zones_changes; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX zones_changes ON public.zones USING btree (database_id, change_sequence);


--
-- Name: zones_live_name; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX zones_live_name ON public.zones USING btree (database_id, zone_name) WHERE (NOT deleted);


--
-- Name: sessions sessions_user_record_name_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_user_record_name_fkey FOREIGN KEY (user_record_name) REFERENCES public.users(user_record_name);


--
-- Name: users users_container_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_container_id_fkey FOREIGN KEY (container_id) REFERENCES public.containers(id);


--
-- Name: zones zones_database_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.zones
    ADD CONSTRAINT zones_database_id_fkey FOREIGN KEY (database_id) REFERENCES public.databases(id);


--
-- PostgreSQL database dump complete
--

\unrestrict K0DtmQtEOlRRfwzcHAUJGGsp8mWekRnSDKcOiSkjfsIcS13rVlsmafWytjqslJB

